/**
 * The real field names of each request body the API takes (arb-values.ts has plausible values
 * for them), so a good share of generated bodies passes the schema and reaches the code behind.
 */
import type { Style } from './style';

export type BodyKind = 'node' | 'port' | 'portgroup' | 'chassis' | 'allocation' | 'template' | 'connector' | 'target'
  | 'event' | 'heartbeat' | 'provision' | 'power' | 'raid' | 'boot_mode' | 'secure_boot' | 'console' | 'boot_device'
  | 'indicator' | 'maintenance' | 'traits' | 'vif' | 'vendor' | 'any';

const NODE_FIELDS = ['automated_clean', 'bios_interface', 'boot_interface', 'boot_mode', 'chassis_uuid', 'conductor_group',
  'console_enabled', 'console_interface', 'deploy_interface', 'description', 'driver', 'driver_info', 'extra',
  'inspect_interface', 'instance_info', 'instance_uuid', 'lessee', 'management_interface', 'maintenance', 'name',
  'network_data', 'network_interface', 'owner', 'power_interface', 'properties', 'raid_interface', 'rescue_interface',
  'resource_class', 'retired', 'retired_reason', 'secure_boot', 'shard', 'storage_interface', 'uuid', 'vendor_interface',
  'protected', 'protected_reason'];

/** Body fields by kind, as the API takes them at its highest version; a Map so a generated key is never looked up on an object. */
const CORE_FIELDS = new Map<BodyKind, readonly string[]>([
  ['node', NODE_FIELDS],
  ['port', ['address', 'extra', 'is_smartnic', 'local_link_connection', 'node_uuid', 'physical_network', 'portgroup_uuid',
    'pxe_enabled', 'uuid']],
  ['portgroup', ['address', 'extra', 'mode', 'name', 'node_uuid', 'properties', 'standalone_ports_supported', 'uuid']],
  ['chassis', ['description', 'extra', 'uuid']],
  ['allocation', ['candidate_nodes', 'extra', 'name', 'node', 'owner', 'resource_class', 'traits', 'uuid']],
  ['template', ['name', 'steps', 'extra', 'uuid']],
  ['connector', ['node_uuid', 'type', 'connector_id', 'extra', 'uuid']],
  ['target', ['node_uuid', 'volume_type', 'properties', 'boot_index', 'volume_id', 'extra', 'uuid']],
  ['event', ['events']],
  ['heartbeat', ['callback_url', 'agent_token', 'agent_version', 'agent_verify_ca', 'agent_status', 'agent_status_message']],
  ['provision', ['target', 'configdrive', 'clean_steps', 'deploy_steps', 'rescue_password', 'disable_ramdisk']],
  ['power', ['target', 'timeout']],
  ['raid', ['logical_disks']],
  ['boot_mode', ['target']],
  ['secure_boot', ['target']],
  ['console', ['enabled']],
  ['boot_device', ['boot_device', 'persistent']],
  ['indicator', ['state']],
  ['maintenance', ['reason']],
  ['traits', ['traits']],
  ['vif', ['id']],
  ['vendor', ['bar']],
  ['any', ['bar', 'a', 'name']],
]);

/** Names the API does not take (read-only, later versions, made up): only hostile bodies use them. */
const OTHER_FIELDS = new Map<BodyKind, readonly string[]>([
  ['node', ['traits', 'firmware_interface', 'parent_node', 'provision_state', 'driver_internal_info', 'target_raid_config',
    'raid_config', 'clean_step', 'reservation', 'id', 'created_at', 'links', 'disable_power_off', 'instance_name']],
  ['port', ['name', 'internal_info', 'node_id', 'category']],
  ['portgroup', ['physical_network', 'internal_info']],
  ['chassis', ['nodes']],
  ['allocation', ['state', 'node_uuid']],
  ['provision', ['service_steps', 'runbook']],
  ['vendor', ['a', 'http_method']],
  ['any', ['id', 'value', 'data']],
]);

/** The fields bodies of `kind` are made of in `style`. */
export function fieldsOf(kind: BodyKind, style: Style): readonly string[] {
  const core = CORE_FIELDS.get(kind) ?? [];
  return style === 'plausible' ? core : [...core, ...(OTHER_FIELDS.get(kind) ?? [])];
}

/** Every field name of every kind. */
export function allFieldNames(): string[] {
  return [...new Set([...CORE_FIELDS.values(), ...OTHER_FIELDS.values()].flat())];
}

/** Fields a kind's body needs to pass the schema, most of the time present. */
export const REQUIRED: ReadonlyMap<BodyKind, readonly string[]> = new Map<BodyKind, readonly string[]>([
  ['node', ['driver']], ['port', ['address', 'node_uuid']], ['portgroup', ['node_uuid']], ['allocation', ['resource_class']],
  ['template', ['name', 'steps']], ['connector', ['node_uuid', 'type', 'connector_id']],
  ['target', ['node_uuid', 'volume_type', 'boot_index', 'volume_id']], ['event', ['events']], ['provision', ['target']],
  ['power', ['target']], ['raid', ['logical_disks']], ['boot_mode', ['target']], ['secure_boot', ['target']],
  ['console', ['enabled']], ['boot_device', ['boot_device']], ['indicator', ['state']], ['traits', ['traits']], ['vif', ['id']],
  ['heartbeat', ['callback_url']], ['vendor', ['bar']],
]);

/** Keys inside dict fields: where the fixtures keep secrets, and keys Ironic gives meaning to. */
export const INNER_KEYS = ['ipmi_password', 'redfish_password', 'redfish_address', 'ipmi_address', 'image_source',
  'configdrive', 'image_url', 'password', 'agent_secret_token', 'auth_password', 'capabilities', 'root_gb', 'cpus',
  'vif_port_id', 'switch_id', 'port_id', 'switch_info', 'settings', 'args', 'a', 'b', 'x', '0', '1', '-', 'nested', 'list'];
