/**
 * The lists and tables derived from the node field registry (src/db/node-fields.ts), computed once
 * at load: every place that needs a set of node fields reads it here instead of keeping its own.
 */
import { V } from '../common/microversions';
import { lookupTable } from '../common/own-keys';
import type { ColumnKind } from './column-kind';
import { NODE_FIELD_REGISTRY, NodeFieldDecl, NodeFilter, NodePatchStates } from './node-fields';

const names = (keep: (f: NodeFieldDecl) => boolean): string[] => NODE_FIELD_REGISTRY.filter(keep).map((f) => f.name);

/** [moved, after]: Ironic's hand-sorted list places `moved` right after `after`. */
type OrderQuirk = readonly [string, string];

/** Names as Ironic's hand-kept lists order them: by code point, but for the quirks each list has. */
function ironicOrder(fields: readonly string[], quirks: readonly OrderQuirk[]): string[] {
  const out = [...fields].sort();
  for (const [moved, after] of quirks) {
    if (!out.includes(moved) || !out.includes(after)) throw new Error(`order quirk ${moved} after ${after}: no such field`);
    out.splice(out.indexOf(moved), 1);
    out.splice(out.indexOf(after) + 1, 0, moved);
  }
  return out;
}

const isShown = (f: NodeFieldDecl): boolean => f.api === 'shown';

/** The nodes table: each column's encoding, in column order. */
export const NODE_COLUMN_KINDS: Readonly<Record<string, ColumnKind>> = lookupTable(Object.fromEntries(
  NODE_FIELD_REGISTRY.flatMap((f) => (f.column ? [[f.name, f.column]] : []))));

/** Python-side defaults Ironic's model applies on INSERT. */
export const NODE_INSERT_DEFAULTS: Readonly<Record<string, unknown>> = lookupTable(Object.fromEntries(
  NODE_FIELD_REGISTRY.flatMap((f) => (f.insertDefault === undefined ? [] : [[f.name, f.insertDefault]]))));

/** _get_fields_for_node_query's valid_fields: the fields node views show, in Ironic's order. */
export const NODE_FIELDS: readonly string[] = ironicOrder(names(isShown), [
  ['inspect_interface', 'inspection_started_at'], ['disable_power_off', 'console_interface'],
]);

/** Fields the API computes rather than reads from the node row. */
export const API_FULFILLED_FIELDS: readonly string[] = names((f) => f.api === 'computed');

/** Shown dict fields: an unset one reads as {}. */
export const DICT_FIELDS: ReadonlySet<string> = new Set(names((f) => isShown(f) && f.column === 'dict'));

export const DATE_FIELDS: ReadonlySet<string> = new Set(names((f) => f.column === 'datetime'));

/**
 * utils.VERSIONED_FIELDS: the version each field appeared in. Ironic's table also versions
 * `events`, a name no node has, which the list endpoints' `fields` checks therefore refuse too.
 */
export const NODE_FIELD_VERSIONS: Readonly<Record<string, number>> = lookupTable({
  ...Object.fromEntries(NODE_FIELD_REGISTRY.flatMap((f) => (f.since === undefined ? [] : [[f.name, f.since]]))),
  events: V.EVENTS,
});

/** The fields a PATCH may name, sorted as Ironic lists them in its refusal. */
export const PATCH_ALLOWED_FIELDS: readonly string[] = ironicOrder(names((f) => f.patchable === true),
  [['parent_node', 'vendor_interface'], ['firmware_interface', 'parent_node']]);

/** The Node object fields of Ironic (as_dict keys), besides traits. */
export const OBJECT_FIELDS: readonly string[] = names((f) => f.column !== undefined && (isShown(f) || f.api === 'object'));

/** Columns and relationships of Ironic's nodes model: a list's `fields` naming anything else is refused. */
export const MODEL_ATTRIBUTES: ReadonlySet<string> = new Set(names((f) => isShown(f) || f.api === 'object' || f.api === 'model'));

/** Shown fields a list cannot sort by: the JSON columns and the joined traits. */
export const UNSORTABLE_FIELDS: readonly string[] = names((f) => isShown(f) && (f.column === undefined || f.column === 'dict'));

/** node_schema's properties, in its order: the fields a create body may hold. */
export const CREATE_FIELDS: readonly NodeFieldDecl[] = ironicOrder(
  names((f) => f.input !== undefined && f.patchOnly === undefined), [['maintenance', 'management_interface']],
).map(nodeField);

/** The fields only a patched node may hold besides those (the protected fields), after them. */
export const PATCH_ONLY_FIELDS: readonly NodeFieldDecl[] = NODE_FIELD_REGISTRY.filter((f) => f.patchOnly === true);

/** NODE_VALIDATE_EXTRA: the fields converted after the schema, in its order. */
export const CONVERTED_FIELDS: readonly NodeFieldDecl[] = ironicOrder(
  names((f) => f.convert !== undefined), [['maintenance', 'protected']],
).map(nodeField);

/** A field whose PATCH the conductor allows in some provision states only. */
export type StateLimitedField = NodeFieldDecl & { readonly patchStates: NodePatchStates };

const stateLimited = NODE_FIELD_REGISTRY.filter((f): f is StateLimitedField => f.patchStates !== undefined);

/**
 * The fields update_node limits by provision state, in the order it checks them: those maintenance
 * does not relieve (in the registry's order), then the driver interfaces by name.
 */
export const STATE_LIMITED_FIELDS: readonly StateLimitedField[] = [
  ...stateLimited.filter((f) => !f.patchStates.orMaintenance),
  ...stateLimited.filter((f) => f.patchStates.orMaintenance).sort((a, b) => a.name.localeCompare(b.name)),
];

/** A node list filter with its names resolved. */
export interface NodeListFilter extends NodeFilter {
  readonly field: string;
  readonly arg: string;
  readonly match: NonNullable<NodeFilter['match']>;
  /** Its key in the repository's NodeFilters. */
  readonly key: string;
  /** The field is computed (chassis_uuid, conductor): the API resolves the filter itself. */
  readonly computed: boolean;
  /** Its column holds a boolean (compared as 1 or 0). */
  readonly boolean: boolean;
}

function filterKey(field: string, arg: string, match: NodeListFilter['match']): string {
  if (match === 'one-of') return `${field}_in`;
  return match === 'equals' ? field : arg;
}

/** The node list filters the fields back, in the registry's order. */
export const NODE_LIST_FILTERS: readonly NodeListFilter[] = NODE_FIELD_REGISTRY.flatMap((f) => (f.filters ?? []).map((filter) => {
  const arg = filter.arg ?? f.name;
  const match = filter.match ?? 'equals';
  return { ...filter, field: f.name, arg, match, key: filterKey(f.name, arg, match), computed: f.column === undefined,
    boolean: f.column === 'bool' };
}));

/** The declaration of a field the registry holds (a name from code, never from a request). */
export function nodeField(name: string): NodeFieldDecl {
  const field = NODE_FIELD_REGISTRY.find((f) => f.name === name);
  if (!field) throw new Error(`no node field ${name}`);
  return field;
}
