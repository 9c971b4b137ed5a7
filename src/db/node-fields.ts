/**
 * The node field registry: one declaration per node field, the only place its facts are written.
 * The nodes table spec, NodeRecord, the API's field lists and microversions, the request schemas,
 * the patch policies, masks and redactions are all derived from it (src/db/node-field-lists.ts
 * and the modules that use those lists). Declarations are in the nodes table's column order
 * (migrations append columns), with the fields that are not columns last.
 */
import { V } from '../common/microversions';
import * as states from '../common/states';
import type { ColumnKind } from './column-kind';

/** How far the API knows a field. */
type NodeFieldLevel =
  /** Listed by node views and ?fields= (Ironic's valid_fields). */
  | 'shown'
  /** Shown, but computed by the API rather than read from the node (API_FULFILLED_FIELDS). */
  | 'computed'
  /** A Node object field the views do not list (ids, timestamps). */
  | 'object'
  /** Only an attribute of Ironic's model (a list's `fields` may name it). */
  | 'model'
  /** A column of later Ironic releases: kept in the database, unknown to the API. */
  | 'stored';

/** The request body schema of a field: node_schema's property type. */
export type NodeInput = 'str' | 'required-str' | 'boolish' | 'dict' | 'network-data';

/** The policy a PATCH of the field needs (NodesController._get_patch_policies). */
export interface NodePatchPolicy {
  readonly rule: string;
  /**
   * Which paths it covers: by default any path starting with /<field> (Ironic's startswith);
   * 'interface' only the path naming this driver interface; 'disabling' only a value that is false.
   */
  readonly match?: 'interface' | 'disabling';
}

/** node_sanitize for callers without the rule: the value replaced by the text ({content: text} for dicts). */
export interface NodeRedaction {
  readonly rule: string;
  readonly text: string;
}

/** The mask the API applies to a dict field beyond URL credentials (src/api/views/node-masking.ts). */
export type NodeMask = 'passwords' | 'driver-secrets' | 'instance-secrets';

/**
 * The provision states a PATCH may change a field in, checked by the conductor's update_node (the
 * API's own rule, that a node in transition is patched only in UPDATE_ALLOWED_STATES, holds for all).
 */
export interface NodePatchStates {
  readonly states: readonly string[];
  /** Also in any state while the node is in maintenance (the driver interfaces). */
  readonly orMaintenance?: true;
  /** Only replacing a value already set is limited (resource_class: nova keeps the old one). */
  readonly onceSet?: true;
  /** Only setting it true is limited (protected). */
  readonly settingTrue?: true;
}

/** One list filter a field backs: a query argument of GET /v1/nodes[/detail] and how it matches. */
export interface NodeFilter {
  /** The query argument; the field's name when absent. */
  readonly arg?: string;
  /** The args.* validator Ironic declares for it. */
  readonly read: 'uuid' | 'boolean' | 'string' | 'string_list';
  /**
   * How nodes are kept: the column equals the value (default), is set or unset as a boolean asks,
   * is one of a list, or contains the text.
   */
  readonly match?: 'equals' | 'is-set' | 'one-of' | 'contains';
  /** The microversion it needs, refused below with the minimal-version message (unless `bare406`). */
  readonly since?: number;
  /** Refused with a bare "Request not acceptable." (check_for_invalid_state_and_allow_filter). */
  readonly bare406?: true;
}

export interface NodeFieldDecl {
  readonly name: string;
  /** Its nodes column's encoding; absent for fields the API computes or joins. */
  readonly column?: ColumnKind;
  /** NOT NULL in NodeRecord. */
  readonly notNull?: true;
  /** The Python-side default Ironic's model applies on INSERT. */
  readonly insertDefault?: string | boolean;
  readonly api: NodeFieldLevel;
  /** The API microversion it appeared in (utils.VERSIONED_FIELDS). */
  readonly since?: number;
  /** Accepted in a create body (and so in a patched node) with this schema. */
  readonly input?: NodeInput;
  readonly maxLength?: number;
  /** After the schema, the value is converted by args.boolean or checked by args.uuid (NODE_VALIDATE_EXTRA). */
  readonly convert?: 'bool' | 'uuid';
  /** `input` is accepted only in a patched node, not in a create body. */
  readonly patchOnly?: true;
  /** A PATCH may name it. */
  readonly patchable?: true;
  readonly patchStates?: NodePatchStates;
  readonly policy?: NodePatchPolicy;
  /** The list filters it backs, in Ironic's order. */
  readonly filters?: readonly NodeFilter[];
  readonly mask?: NodeMask;
  readonly redact?: NodeRedaction;
}

const rule = (name: string): NodePatchPolicy => ({ rule: `baremetal:node:update:${name}` });
const INTERFACE: NodePatchPolicy = { rule: 'baremetal:node:update:driver_interfaces', match: 'interface' };
/** update_node's allowed_update_states: a node no instance uses yet. */
const BEFORE_DEPLOY = [states.ENROLL, states.INSPECTING, states.INSPECTWAIT, states.MANAGEABLE, states.AVAILABLE];
const SHOWN_INTERFACE = {
  column: 'str', api: 'shown', input: 'str', patchable: true, patchStates: { states: BEFORE_DEPLOY, orMaintenance: true },
  policy: INTERFACE,
} as const;
/** An equality filter read as a string, refused below `since` with the minimal-version message. */
const byString = (since?: number): readonly NodeFilter[] => [{ read: 'string', ...(since === undefined ? {} : { since }) }];
const DYNAMIC_INTERFACE = { ...SHOWN_INTERFACE, since: V.DYNAMIC_INTERFACES } as const;
const STEP = { column: 'dict', api: 'shown' } as const;

export const NODE_FIELD_DECLS = [
  { name: 'created_at', column: 'datetime', api: 'object' },
  { name: 'updated_at', column: 'datetime', api: 'object' },
  { name: 'version', column: 'str', api: 'model' },
  { name: 'id', column: 'int', notNull: true, api: 'object' },
  { name: 'uuid', column: 'str', notNull: true, api: 'object', input: 'str', convert: 'uuid' },
  {
    name: 'instance_uuid', column: 'str', api: 'shown', input: 'str', convert: 'uuid', patchable: true, policy: rule('instance_uuid'),
    filters: [{ read: 'uuid' }, { arg: 'associated', read: 'boolean', match: 'is-set' }],
  },
  { name: 'name', column: 'str', api: 'shown', since: V.NODE_NAME, input: 'str', patchable: true, policy: rule('name') },
  { name: 'chassis_id', column: 'int', api: 'object' },
  { name: 'power_state', column: 'str', api: 'shown' },
  { name: 'target_power_state', column: 'str', api: 'shown' },
  { name: 'provision_state', column: 'str', api: 'shown', filters: [{ read: 'string', since: V.PROVISION_STATE_FILTER, bare406: true }] },
  { name: 'target_provision_state', column: 'str', api: 'shown' },
  { name: 'provision_updated_at', column: 'datetime', api: 'shown' },
  {
    name: 'last_error', column: 'str', api: 'shown',
    redact: { rule: 'baremetal:node:get:last_error', text: '** Value Redacted - Requires baremetal:node:get:last_error permission. **' },
  },
  {
    name: 'instance_info', column: 'dict', api: 'shown', input: 'dict', patchable: true,
    policy: { rule: 'baremetal:node:update_instance_info' }, mask: 'instance-secrets',
  },
  { name: 'properties', column: 'dict', api: 'shown', input: 'dict', patchable: true, policy: rule('properties') },
  {
    name: 'driver', column: 'str', api: 'shown', input: 'required-str', patchable: true, policy: rule('driver_interfaces'),
    filters: byString(V.DRIVER_FILTER),
  },
  {
    name: 'driver_info', column: 'dict', api: 'shown', input: 'dict', patchable: true, policy: rule('driver_info'), mask: 'driver-secrets',
    redact: { rule: 'baremetal:node:get:driver_info', text: '** Redacted - requires baremetal:node:get:driver_info permission. **' },
  },
  {
    name: 'driver_internal_info', column: 'dict', api: 'shown', since: V.DRIVER_INTERNAL_INFO, mask: 'passwords',
    redact: {
      rule: 'baremetal:node:get:driver_internal_info',
      text: '** Redacted - Requires baremetal:node:get:driver_internal_info permission. **',
    },
  },
  { name: 'clean_step', ...STEP, since: V.NODE_CLEAN },
  { name: 'deploy_step', ...STEP, since: V.DEPLOY_STEP },
  { name: 'service_step', ...STEP, since: V.SERVICE },
  {
    name: 'resource_class', column: 'str', api: 'shown', since: V.RESOURCE_CLASS, input: 'str', maxLength: 80, patchable: true,
    patchStates: { states: BEFORE_DEPLOY, onceSet: true }, filters: byString(V.RESOURCE_CLASS),
  },
  { name: 'raid_config', column: 'dict', api: 'shown', since: V.RAID_CONFIG },
  { name: 'target_raid_config', column: 'dict', api: 'shown', since: V.RAID_CONFIG },
  {
    name: 'reservation', column: 'str', api: 'shown',
    redact: { rule: 'baremetal:node:get:reservation', text: '** Redacted - requires baremetal:node:get:reservation permission. **' },
  },
  { name: 'conductor_affinity', column: 'int', api: 'object' },
  {
    name: 'conductor_group', column: 'str', notNull: true, insertDefault: '', api: 'shown', since: V.CONDUCTOR_GROUP,
    input: 'str', patchable: true, policy: rule('conductor_group'), filters: byString(V.CONDUCTOR_GROUP),
  },
  {
    name: 'maintenance', column: 'bool', insertDefault: false, api: 'shown', input: 'boolish', convert: 'bool', patchable: true,
    policy: { rule: 'baremetal:node:set_maintenance' }, filters: [{ read: 'boolean' }],
  },
  { name: 'maintenance_reason', column: 'str', api: 'shown' },
  { name: 'fault', column: 'str', api: 'shown', since: V.FAULT, filters: byString(V.FAULT) },
  { name: 'console_enabled', column: 'bool', insertDefault: false, api: 'shown', input: 'boolish', convert: 'bool' },
  { name: 'inspection_finished_at', column: 'datetime', api: 'shown', since: V.INSPECT_STATE },
  { name: 'inspection_started_at', column: 'datetime', api: 'shown', since: V.INSPECT_STATE },
  { name: 'extra', column: 'dict', api: 'shown', input: 'dict', patchable: true, policy: { rule: 'baremetal:node:update_extra' } },
  {
    name: 'automated_clean', column: 'bool', api: 'shown', since: V.AUTOMATED_CLEAN, input: 'boolish', convert: 'bool', patchable: true,
    policy: { rule: 'baremetal:node:disable_cleaning', match: 'disabling' },
  },
  {
    name: 'protected', column: 'bool', notNull: true, insertDefault: false, api: 'shown', since: V.PROTECTED,
    input: 'boolish', convert: 'bool', patchOnly: true, patchable: true,
    patchStates: { states: [states.ACTIVE, states.RESCUE], settingTrue: true },
  },
  { name: 'protected_reason', column: 'str', api: 'shown', since: V.PROTECTED, input: 'str', patchOnly: true, patchable: true },
  { name: 'owner', column: 'str', api: 'shown', since: V.OWNER, input: 'str', patchable: true, policy: rule('owner'), filters: byString(V.OWNER) },
  { name: 'lessee', column: 'str', api: 'shown', since: V.LESSEE, input: 'str', patchable: true, policy: rule('lessee'), filters: byString(V.LESSEE) },
  { name: 'allocation_id', column: 'int', api: 'object' },
  {
    name: 'description', column: 'str', api: 'shown', since: V.DESCRIPTION, input: 'str', maxLength: 4096, patchable: true,
    filters: [{ arg: 'description_contains', read: 'string', match: 'contains' }],
  },
  { name: 'bios_interface', ...SHOWN_INTERFACE, since: V.BIOS_INTERFACE },
  { name: 'boot_interface', ...DYNAMIC_INTERFACE },
  { name: 'console_interface', ...DYNAMIC_INTERFACE },
  { name: 'deploy_interface', ...DYNAMIC_INTERFACE },
  { name: 'firmware_interface', ...SHOWN_INTERFACE, since: V.FIRMWARE_INTERFACE },
  { name: 'inspect_interface', ...DYNAMIC_INTERFACE },
  { name: 'management_interface', ...DYNAMIC_INTERFACE },
  { name: 'network_interface', ...SHOWN_INTERFACE, since: V.NETWORK_INTERFACE },
  { name: 'raid_interface', ...DYNAMIC_INTERFACE },
  { name: 'rescue_interface', ...SHOWN_INTERFACE, since: V.RESCUE_INTERFACE },
  { name: 'storage_interface', ...SHOWN_INTERFACE, since: V.STORAGE_INTERFACE },
  { name: 'power_interface', ...DYNAMIC_INTERFACE },
  { name: 'vendor_interface', ...DYNAMIC_INTERFACE },
  {
    name: 'retired', column: 'bool', insertDefault: false, api: 'shown', since: V.RETIRED, input: 'boolish', convert: 'bool', patchable: true,
    policy: rule('retired'), filters: [{ read: 'boolean' }],
  },
  { name: 'retired_reason', column: 'str', api: 'shown', since: V.RETIRED, input: 'str', patchable: true },
  {
    name: 'network_data', column: 'dict', api: 'shown', since: V.NETWORK_DATA, input: 'network-data', patchable: true,
    policy: rule('network_data'),
  },
  { name: 'boot_mode', column: 'str', api: 'shown', since: V.BOOT_MODE, input: 'str' },
  { name: 'secure_boot', column: 'bool', api: 'shown', since: V.BOOT_MODE, input: 'boolish' },
  {
    name: 'shard', column: 'str', api: 'shown', since: V.SHARDS, input: 'str', patchable: true, policy: rule('shard'),
    filters: [{ read: 'string_list', match: 'one-of', since: V.SHARDS }, { arg: 'sharded', read: 'boolean', match: 'is-set', since: V.SHARDS }],
  },
  {
    name: 'parent_node', column: 'str', api: 'shown', since: V.PARENT_CHILD_NODES, input: 'str', maxLength: 36, patchable: true,
    policy: rule('parent_node'),
  },
  {
    name: 'disable_power_off', column: 'bool', insertDefault: false, api: 'shown', since: V.DISABLE_POWER_OFF,
    input: 'boolish', convert: 'bool', patchable: true, policy: rule('disable_power_off'),
  },
  { name: 'instance_name', column: 'str', api: 'stored' },
  { name: 'health', column: 'str', api: 'stored' },
  // Not columns: joined from node_traits / node_tags, or computed by the API.
  { name: 'traits', api: 'shown', since: V.NODE_TRAITS },
  { name: 'tags', api: 'model' },
  {
    name: 'chassis_uuid', api: 'computed', input: 'str', convert: 'uuid', patchable: true, policy: rule('chassis_uuid'),
    filters: [{ read: 'uuid' }],
  },
  { name: 'conductor', api: 'computed', since: V.CONDUCTORS, filters: byString(V.CONDUCTORS) },
  { name: 'allocation_uuid', api: 'computed', since: V.ALLOCATIONS },
] as const satisfies readonly NodeFieldDecl[];

export const NODE_FIELD_REGISTRY: readonly NodeFieldDecl[] = NODE_FIELD_DECLS;
