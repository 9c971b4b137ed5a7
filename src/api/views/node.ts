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
import { lookupTable } from '../../common/own-keys';

/** _get_fields_for_node_query's valid_fields: the object fields shown, in Ironic's order. */
export const NODE_FIELDS = ['automated_clean', 'bios_interface', 'boot_interface', 'boot_mode', 'clean_step',
  'conductor_group', 'console_enabled', 'console_interface', 'deploy_interface', 'deploy_step', 'description',
  'driver', 'driver_info', 'driver_internal_info', 'extra', 'fault', 'inspection_finished_at',
  'inspection_started_at', 'inspect_interface', 'instance_info', 'instance_uuid', 'last_error', 'lessee',
  'maintenance', 'maintenance_reason', 'management_interface', 'name', 'network_data', 'network_interface', 'owner',
  'power_interface', 'power_state', 'properties', 'protected', 'protected_reason', 'provision_state',
  'provision_updated_at', 'raid_config', 'raid_interface', 'rescue_interface', 'reservation', 'resource_class',
  'retired', 'retired_reason', 'secure_boot', 'shard', 'storage_interface', 'target_power_state',
  'target_provision_state', 'target_raid_config', 'traits', 'vendor_interface'] as const;

/** Fields the API computes rather than reads from the node row. */
export const API_FULFILLED_FIELDS = ['allocation_uuid', 'chassis_uuid', 'conductor'] as const;

export const DICT_FIELDS: ReadonlySet<string> = new Set(['driver_info', 'driver_internal_info', 'clean_step', 'deploy_step', 'raid_config',
  'target_raid_config', 'instance_info', 'properties', 'extra', 'network_data']);
const DATE_FIELDS = new Set(['created_at', 'updated_at', 'provision_updated_at', 'inspection_started_at',
  'inspection_finished_at']);

/** utils.VERSIONED_FIELDS: the version each node field appeared in. */
export const NODE_FIELD_VERSIONS: Readonly<Record<string, number>> = lookupTable({
  driver_internal_info: V.DRIVER_INTERNAL_INFO, name: V.NODE_NAME, inspection_finished_at: V.INSPECT_STATE,
  inspection_started_at: V.INSPECT_STATE, clean_step: V.NODE_CLEAN, raid_config: V.RAID_CONFIG,
  target_raid_config: V.RAID_CONFIG, network_interface: V.NETWORK_INTERFACE, resource_class: V.RESOURCE_CLASS,
  storage_interface: V.STORAGE_INTERFACE, traits: V.NODE_TRAITS, rescue_interface: V.RESCUE_INTERFACE,
  bios_interface: V.BIOS_INTERFACE, fault: V.FAULT, deploy_step: V.DEPLOY_STEP, conductor_group: V.CONDUCTOR_GROUP,
  automated_clean: V.AUTOMATED_CLEAN, protected: V.PROTECTED, protected_reason: V.PROTECTED, conductor: V.CONDUCTORS,
  owner: V.OWNER, description: V.DESCRIPTION, allocation_uuid: V.ALLOCATIONS, events: V.EVENTS, retired: V.RETIRED,
  retired_reason: V.RETIRED, lessee: V.LESSEE, network_data: V.NETWORK_DATA, boot_mode: V.BOOT_MODE,
  secure_boot: V.BOOT_MODE, shard: V.SHARDS, boot_interface: V.DYNAMIC_INTERFACES,
  console_interface: V.DYNAMIC_INTERFACES, deploy_interface: V.DYNAMIC_INTERFACES,
  inspect_interface: V.DYNAMIC_INTERFACES, management_interface: V.DYNAMIC_INTERFACES,
  power_interface: V.DYNAMIC_INTERFACES, raid_interface: V.DYNAMIC_INTERFACES, vendor_interface: V.DYNAMIC_INTERFACES,
});

const disallowedByVersion = new Map<number, readonly string[]>();

/** disallowed_fields(): the versioned fields the request's version does not know, in Ironic's order. */
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

export function objectFieldsFor(fields: readonly string[] | null): readonly string[] {
  if (fields === null) return NODE_FIELDS;
  const cached = objectFieldsCache.get(fields);
  if (cached) return cached;
  for (const field of fields) {
    if (!KNOWN_FIELDS.has(field)) throw new Invalid(`Field ${field} is not a valid field.`);
  }
  const result = fields.filter((f) => !(API_FULFILLED_FIELDS as readonly string[]).includes(f));
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
