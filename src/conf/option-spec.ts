/** The shape of one option in the catalog, shared by Ironic's dump and ironic-ts's own additions. */
type OptionType = 'string' | 'int' | 'port' | 'float' | 'bool' | 'list' | 'dict' | 'multistring';
export type OptionValue = string | number | boolean | string[] | Record<string, string> | null;

export interface OptionSpec {
  type: OptionType;
  default?: OptionValue;
  choices?: (string | number | null)[];
  min?: number;
  max?: number;
  secret?: boolean;
  deprecated?: string[];
}

export type Catalog = Record<string, Record<string, OptionSpec>>;
