/**
 * The node field registry: one declaration per node field, the only place its facts are written.
 * The nodes table spec, NodeRecord, the API's field lists and microversions, the request schemas,
 * the patch policies, masks and redactions are all derived from it (src/db/node-field-lists.ts
 * and the modules that use those lists). Declarations are in the nodes table's column order
 * (migrations append columns), with the fields that are not columns last.
 */
import { V } from '../common/microversions';
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
  readonly policy?: NodePatchPolicy;
  readonly mask?: NodeMask;
  readonly redact?: NodeRedaction;
}

const rule = (name: string): NodePatchPolicy => ({ rule: `baremetal:node:update:${name}` });
const INTERFACE: NodePatchPolicy = { rule: 'baremetal:node:update:driver_interfaces', match: 'interface' };
const SHOWN_INTERFACE = { column: 'str', api: 'shown', input: 'str', patchable: true, policy: INTERFACE } as const;
const DYNAMIC_INTERFACE = { ...SHOWN_INTERFACE, since: V.DYNAMIC_INTERFACES } as const;
const STEP = { column: 'dict', api: 'shown' } as const;

export const NODE_FIELD_DECLS = [
  { name: 'created_at', column: 'datetime', api: 'object' },
  { name: 'updated_at', column: 'datetime', api: 'object' },
  { name: 'version', column: 'str', api: 'model' },
  { name: 'id', column: 'int', notNull: true, api: 'object' },
  { name: 'uuid', column: 'str', notNull: true, api: 'object', input: 'str', convert: 'uuid' },
  { name: 'instance_uuid', column: 'str', api: 'shown', input: 'str', convert: 'uuid', patchable: true, policy: rule('instance_uuid') },
  { name: 'name', column: 'str', api: 'shown', since: V.NODE_NAME, input: 'str', patchable: true, policy: rule('name') },
  { name: 'chassis_id', column: 'int', api: 'object' },
  { name: 'power_state', column: 'str', api: 'shown' },
  { name: 'target_power_state', column: 'str', api: 'shown' },
  { name: 'provision_state', column: 'str', api: 'shown' },
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
  { name: 'driver', column: 'str', api: 'shown', input: 'required-str', patchable: true, policy: rule('driver_interfaces') },
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
  { name: 'service_step', column: 'dict', api: 'stored' },
  { name: 'resource_class', column: 'str', api: 'shown', since: V.RESOURCE_CLASS, input: 'str', maxLength: 80, patchable: true },
  { name: 'raid_config', column: 'dict', api: 'shown', since: V.RAID_CONFIG },
  { name: 'target_raid_config', column: 'dict', api: 'shown', since: V.RAID_CONFIG },
  {
    name: 'reservation', column: 'str', api: 'shown',
    redact: { rule: 'baremetal:node:get:reservation', text: '** Redacted - requires baremetal:node:get:reservation permission. **' },
  },
  { name: 'conductor_affinity', column: 'int', api: 'object' },
  {
    name: 'conductor_group', column: 'str', notNull: true, insertDefault: '', api: 'shown', since: V.CONDUCTOR_GROUP,
    input: 'str', patchable: true, policy: rule('conductor_group'),
  },
  {
    name: 'maintenance', column: 'bool', insertDefault: false, api: 'shown', input: 'boolish', convert: 'bool', patchable: true,
    policy: { rule: 'baremetal:node:set_maintenance' },
  },
  { name: 'maintenance_reason', column: 'str', api: 'shown' },
  { name: 'fault', column: 'str', api: 'shown', since: V.FAULT },
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
  },
  { name: 'protected_reason', column: 'str', api: 'shown', since: V.PROTECTED, input: 'str', patchOnly: true, patchable: true },
  { name: 'owner', column: 'str', api: 'shown', since: V.OWNER, input: 'str', patchable: true, policy: rule('owner') },
  { name: 'lessee', column: 'str', api: 'shown', since: V.LESSEE, input: 'str', patchable: true, policy: rule('lessee') },
  { name: 'allocation_id', column: 'int', api: 'object' },
  { name: 'description', column: 'str', api: 'shown', since: V.DESCRIPTION, input: 'str', maxLength: 4096, patchable: true },
  { name: 'bios_interface', ...SHOWN_INTERFACE, since: V.BIOS_INTERFACE },
  { name: 'boot_interface', ...DYNAMIC_INTERFACE },
  { name: 'console_interface', ...DYNAMIC_INTERFACE },
  { name: 'deploy_interface', ...DYNAMIC_INTERFACE },
  { name: 'firmware_interface', column: 'str', api: 'stored' },
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
    policy: rule('retired'),
  },
  { name: 'retired_reason', column: 'str', api: 'shown', since: V.RETIRED, input: 'str', patchable: true },
  {
    name: 'network_data', column: 'dict', api: 'shown', since: V.NETWORK_DATA, input: 'network-data', patchable: true,
    policy: rule('network_data'),
  },
  { name: 'boot_mode', column: 'str', api: 'shown', since: V.BOOT_MODE, input: 'str' },
  { name: 'secure_boot', column: 'bool', api: 'shown', since: V.BOOT_MODE, input: 'boolish' },
  { name: 'shard', column: 'str', api: 'shown', since: V.SHARDS, input: 'str', patchable: true, policy: rule('shard') },
  { name: 'parent_node', column: 'str', api: 'stored' },
  { name: 'disable_power_off', column: 'bool', insertDefault: false, api: 'stored' },
  { name: 'instance_name', column: 'str', api: 'stored' },
  { name: 'health', column: 'str', api: 'stored' },
  // Not columns: joined from node_traits / node_tags, or computed by the API.
  { name: 'traits', api: 'shown', since: V.NODE_TRAITS },
  { name: 'tags', api: 'model' },
  { name: 'chassis_uuid', api: 'computed', input: 'str', convert: 'uuid', patchable: true, policy: rule('chassis_uuid') },
  { name: 'conductor', api: 'computed', since: V.CONDUCTORS },
  { name: 'allocation_uuid', api: 'computed', since: V.ALLOCATIONS },
] as const satisfies readonly NodeFieldDecl[];

export const NODE_FIELD_REGISTRY: readonly NodeFieldDecl[] = NODE_FIELD_DECLS;
