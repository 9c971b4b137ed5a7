/**
 * A node as the API shows it (node_convert_with_links + node_sanitize of Ironic 21.4.4): Ironic's
 * field order, empty dicts for unset dict fields, the API-computed fields (conductor,
 * allocation_uuid, chassis_uuid), sub-resource links, secrets masked, fields newer than the
 * request's version removed and provision states renamed for old versions.
 */
import { Invalid } from '../../common/errors';
import type { NodeRecord, NodeTraitRecord } from '../../db/models';
import { Link, makeLink, selfAndBookmark } from '../links';
import { V } from '../versions';
import { maskNodeField } from './node-masking';
import { isoformat } from './resource-dict';
import { API_FULFILLED_FIELDS, DATE_FIELDS, DICT_FIELDS, NODE_FIELD_VERSIONS, NODE_FIELDS } from '../../db/node-field-lists';

const disallowedByVersion = new Map<number, readonly string[]>();

/** disallowed_fields(): the versioned fields the request's version does not know. */
export function disallowedFields(version: number): readonly string[] {
  let fields = disallowedByVersion.get(version);
  if (!fields) {
    fields = Object.entries(NODE_FIELD_VERSIONS).filter(([, min]) => version < min).map(([f]) => f);
    disallowedByVersion.set(version, fields);
  }
  return fields;
}

export interface NodeWithTraits extends NodeRecord {
  traits?: NodeTraitRecord[];
}

/** What the view needs besides the row: values looked up elsewhere (batched by the caller). */
export interface NodeViewExtras {
  /** Conductor host from the hash ring; null when no conductor can take the node. */
  conductor?: string | null;
  allocationUuid?: string | null;
  chassisUuid?: string | null;
}

export interface NodeViewOptions {
  base: string;
  version: number;
  /** Requested fields (already validated), or null for everything. */
  fields: readonly string[] | null;
}

function fieldValue(node: NodeWithTraits, field: string): unknown {
  if (field === 'traits') return node.traits ? node.traits.map((t) => t.trait) : null;
  const value = (node as unknown as Record<string, unknown>)[field];
  if (DATE_FIELDS.has(field)) return isoformat((value as Date | null) ?? null);
  if (value === null || value === undefined) return DICT_FIELDS.has(field) ? {} : null;
  return value;
}

/** _get_fields_for_node_query with fields: the object fields to read, refusing unknown ones. */
const KNOWN_FIELDS = new Set<string>(['uuid', 'traits', ...API_FULFILLED_FIELDS, ...NODE_FIELDS]);

const objectFieldsCache = new WeakMap<readonly string[], readonly string[]>();

function objectFieldsFor(fields: readonly string[] | null): readonly string[] {
  if (fields === null) return NODE_FIELDS;
  const cached = objectFieldsCache.get(fields);
  if (cached) return cached;
  for (const field of fields) {
    if (!KNOWN_FIELDS.has(field)) throw new Invalid(`Field ${field} is not a valid field.`);
  }
  const result = fields.filter((f) => !API_FULFILLED_FIELDS.includes(f));
  objectFieldsCache.set(fields, result);
  return result;
}

export function subLinks(base: string, uuid: string, sub: string): Link[] {
  return [makeLink(base, 'self', 'nodes', `${uuid}/${sub}`), makeLink(base, 'bookmark', 'nodes', `${uuid}/${sub}`, true)];
}

export const SUB_LINKS: ReadonlySet<string> = new Set(['ports', 'states', 'portgroups', 'volume']);
const planCache = new Map<string, readonly string[]>();

/**
 * The output keys, in order, for these fields at this version: what object_to_dict builds, then
 * node_sanitize's trimming (requested fields + links) and hiding of newer fields. Computed once per
 * (version, fields) so each node is built directly with its final keys.
 */
export function viewPlan(fields: readonly string[] | null, version: number): readonly string[] {
  const cacheKey = `${version}|${fields === null ? '*' : fields.join(',')}`;
  const cached = planCache.get(cacheKey);
  if (cached) return cached;
  const keys: string[] = [];
  const add = (k: string): void => { if (!keys.includes(k)) keys.push(k); };
  ['uuid', 'created_at', 'updated_at', ...objectFieldsFor(fields)].forEach(add);
  add('links');
  const wants = (f: string): boolean => fields === null || fields.includes(f);
  if (version >= V.CONDUCTORS && wants('conductor')) add('conductor');
  if (version >= V.ALLOCATIONS && wants('allocation_uuid')) add('allocation_uuid');
  if (wants('chassis_uuid')) add('chassis_uuid');
  if (fields === null) {
    add('ports');
    if (version >= V.LINKS_NODE_STATES_DRIVER_PROPS) add('states');
    if (version >= V.PORTGROUP_SUBRESOURCES) add('portgroups');
    if (version >= V.VOLUME) add('volume');
  }
  const hidden = new Set(disallowedFields(version));
  const plan = keys.filter((k) => (fields === null || k === 'links' || fields.includes(k)) && !hidden.has(k));
  if (planCache.size > 1000) planCache.clear();
  planCache.set(cacheKey, plan);
  return plan;
}

function viewValue(node: NodeWithTraits, key: string, base: string, extras: NodeViewExtras): unknown {
  switch (key) {
    case 'links': return selfAndBookmark(base, 'nodes', node.uuid);
    case 'conductor': return extras.conductor ?? null;
    case 'allocation_uuid': return extras.allocationUuid ?? null;
    case 'chassis_uuid': return extras.chassisUuid ?? null;
  }
  if (SUB_LINKS.has(key)) return subLinks(base, node.uuid, key);
  return maskNodeField(key, fieldValue(node, key));
}

/** The API dict for one node (node_convert_with_links + node_sanitize). */
export function nodeView(node: NodeWithTraits, opts: NodeViewOptions, extras: NodeViewExtras): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of viewPlan(opts.fields, opts.version)) out[key] = viewValue(node, key, opts.base, extras);
  if ('provision_state' in out) renameStatesForVersion(out, opts.version);
  return out;
}

/** update_state_in_older_versions: "available" was NOSTATE before 1.2; "inspect wait" was "inspecting" before 1.39. */
export function renameStatesForVersion(obj: Record<string, unknown>, version: number): void {
  if (version < 2 && obj.provision_state === 'available') obj.provision_state = null;
  if (version < V.INSPECT_WAIT && obj.provision_state === 'inspect wait') obj.provision_state = 'inspecting';
}
