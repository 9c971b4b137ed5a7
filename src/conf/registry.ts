/**
 * The one registry of configuration options: Ironic's own catalog (names, types, defaults, bounds;
 * oslo libraries' groups included) plus the few options ironic-ts adds. Loaded once.
 */
import catalog from './catalog/ironic-options.json';
import { EXTRA_OPTIONS } from './catalog/ironic-ts-options';
import { emptyDict } from '../common/own-keys';
import type { Catalog, OptionSpec, OptionValue } from './option-spec';

export type { OptionSpec, OptionValue };

type IronicCatalog = typeof catalog;
type ExtraCatalog = typeof EXTRA_OPTIONS;

/** Every group the catalog knows: a name outside it fails to compile. */
export type GroupName = keyof IronicCatalog | keyof ExtraCatalog;

/** The options of one group, Ironic's and ironic-ts's: an unknown option fails to compile. */
export type OptionName<G extends GroupName> = string & (
  | (G extends keyof IronicCatalog ? keyof IronicCatalog[G] : never)
  | (G extends keyof ExtraCatalog ? keyof ExtraCatalog[G] : never));

/** The groups that have option O, e.g. every keystoneauth group for 'auth_type'. */
export type GroupWith<O extends string> = { [G in GroupName]: O extends OptionName<G> ? G : never }[GroupName];

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
const DEPRECATED_ALIASES: Map<string, { group: string; name: string }> = (() => {
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
