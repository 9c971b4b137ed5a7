/**
 * Node list filters, mirroring Ironic's _add_nodes_filters plus the newer parent/child,
 * instance_name and shard filters. All columns are qualified with `nodes.` so the query may join.
 */
import type { Knex } from 'knex';
import { encodeDate, Dialect } from '../codec';
import { NODE_LIST_FILTERS, NodeListFilter } from '../node-field-lists';

export interface NodeFilters {
  id?: number;
  uuid?: string;
  uuid_in?: string[];
  chassis_id?: number;
  instance_uuid?: string;
  instance_name?: string;
  /** true: instance_uuid IS NOT NULL; false: IS NULL. */
  associated?: boolean;
  /** true: reservation IS NOT NULL; false: IS NULL. */
  reserved?: boolean;
  reserved_by_any_of?: string[];
  with_power_state?: boolean;
  maintenance?: boolean;
  retired?: boolean;
  console_enabled?: boolean;
  provision_state?: string;
  provision_state_in?: string[];
  driver?: string;
  resource_class?: string;
  fault?: string;
  conductor_group?: string;
  owner?: string;
  lessee?: string;
  /** owner = project OR lessee = project. */
  project?: string;
  description_contains?: string;
  shard_in?: string[];
  /** true: shard IS NOT NULL; false: IS NULL. */
  sharded?: boolean;
  parent_node?: string;
  /** false: only nodes without a parent (Ironic's API default). */
  include_children?: boolean;
  /** provision_updated_at older than this many seconds. */
  provisioned_before?: number;
  /** inspection_started_at older than this many seconds. */
  inspection_started_before?: number;
}

/** The API's list filters on columns (the registry's), each by how it matches. */
const COLUMN_FILTERS = NODE_LIST_FILTERS.filter((f) => !f.computed);
const listed = (match: NodeListFilter['match'], boolean = false): NodeListFilter[] =>
  COLUMN_FILTERS.filter((f) => f.match === match && f.boolean === boolean);
const keyed = (match: NodeListFilter['match']): Array<[keyof NodeFilters, string]> =>
  listed(match).map((f) => [f.key as keyof NodeFilters, f.field]);

// The registry's filters, then those only the conductor's scans and lookups use.
const EQUALITY: ReadonlyArray<keyof NodeFilters> = [...listed('equals').map((f) => f.key as keyof NodeFilters),
  'id', 'uuid', 'chassis_id', 'instance_name', 'parent_node'];
const BOOLEANS: ReadonlyArray<keyof NodeFilters> = [...listed('equals', true).map((f) => f.key as keyof NodeFilters),
  'console_enabled'];
const NON_NULL: ReadonlyArray<[keyof NodeFilters, string]> = [...keyed('is-set'),
  ['reserved', 'reservation'], ['with_power_state', 'power_state']];
const IN_LISTS: ReadonlyArray<[keyof NodeFilters, string]> = [...keyed('one-of'),
  ['uuid_in', 'uuid'], ['provision_state_in', 'provision_state'], ['reserved_by_any_of', 'reservation']];
/** LIKE filters: the registry's (description_contains). */
const CONTAINS: ReadonlyArray<[keyof NodeFilters, string]> = keyed('contains');

function secondsAgo(seconds: number, dialect: Dialect): string {
  return encodeDate(new Date(Date.now() - seconds * 1000), dialect);
}

/** LIKE pattern matching `text` literally (Ironic does not escape; we do, so "%" means "%"). */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function applyNodeFilters(query: Knex.QueryBuilder, filters: NodeFilters, dialect: Dialect): Knex.QueryBuilder {
  for (const key of EQUALITY) {
    const value = filters[key];
    if (value !== undefined) query.where(`nodes.${key}`, value as string | number);
  }
  for (const key of BOOLEANS) {
    const value = filters[key];
    if (value !== undefined) query.where(`nodes.${key}`, value ? 1 : 0);
  }
  for (const [key, column] of NON_NULL) {
    const value = filters[key];
    if (value === undefined) continue;
    if (value) query.whereNotNull(`nodes.${column}`);
    else query.whereNull(`nodes.${column}`);
  }
  for (const [key, column] of IN_LISTS) {
    const value = filters[key];
    if (Array.isArray(value)) query.whereIn(`nodes.${column}`, value);
  }
  if (filters.include_children === false) query.whereNull('nodes.parent_node');
  if (filters.project !== undefined) {
    const project = filters.project;
    query.where((q) => { q.where('nodes.owner', project).orWhere('nodes.lessee', project); });
  }
  for (const [key, column] of CONTAINS) {
    const value = filters[key];
    if (typeof value !== 'string') continue;
    // MySQL's LIKE already escapes with backslash (and '\' would be an unterminated literal there).
    const escape = dialect === 'sqlite' ? " ESCAPE '\\'" : '';
    query.whereRaw(`nodes.${column} LIKE ?${escape}`, [containsPattern(value)]);
  }
  if (filters.provisioned_before !== undefined) {
    query.where('nodes.provision_updated_at', '<', secondsAgo(filters.provisioned_before, dialect));
  }
  if (filters.inspection_started_before !== undefined) {
    query.where('nodes.inspection_started_at', '<', secondsAgo(filters.inspection_started_before, dialect));
  }
  return query;
}
