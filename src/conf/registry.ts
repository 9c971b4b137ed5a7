/**
 * The one registry of configuration options: Ironic's own catalog (names, types, defaults, bounds;
 * oslo libraries' groups included) plus the few options ironic-ts adds. Loaded once.
 */
import catalog from './catalog/ironic-options.json';
import { EXTRA_OPTIONS } from './catalog/ironic-ts-options';
import { emptyDict } from '../common/own-keys';

export type OptionType = 'string' | 'int' | 'port' | 'float' | 'bool' | 'list' | 'dict' | 'multistring';
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

/** Without prototypes, so a config file's `[__proto__]` or `constructor = x` names no option. */
function buildCatalog(): Catalog {
  const merged: Catalog = emptyDict();
  for (const source of [catalog as unknown as Catalog, EXTRA_OPTIONS]) {
    for (const [group, options] of Object.entries(source)) {
      merged[group] = Object.assign(merged[group] ?? emptyDict<OptionSpec>(), options);
    }
  }
  return merged;
}

export const OPTIONS: Catalog = buildCatalog();

/** Maps `group.name` of deprecated aliases to their current home. */
export const DEPRECATED_ALIASES: Map<string, { group: string; name: string }> = (() => {
  const aliases = new Map<string, { group: string; name: string }>();
  for (const [group, options] of Object.entries(OPTIONS)) {
    for (const [name, spec] of Object.entries(options)) {
      for (const alias of spec.deprecated ?? []) aliases.set(alias, { group, name });
    }
  }
  return aliases;
})();

export function findOption(group: string, name: string): { group: string; name: string; spec: OptionSpec } | null {
  const spec = OPTIONS[group]?.[name];
  if (spec) return { group, name, spec };
  const alias = DEPRECATED_ALIASES.get(`${group}.${name}`);
  if (alias) return { ...alias, spec: OPTIONS[alias.group][alias.name] };
  return null;
}
