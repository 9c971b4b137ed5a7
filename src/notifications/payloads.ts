/**
 * Ironic's versioned notification payloads (ironic/objects/*.py `*Payload`, 29.0.5): each class's
 * name, VERSION and fields, and their wire form, oslo.versionedobjects' obj_to_primitive with the
 * changes dropped (`ironic_object.name/namespace/version/data`). Fields come from the record, or
 * from `extra` for the ones Ironic passes as keyword arguments (chassis_uuid, to_power, event...).
 */
import { maskDictPassword, maskUrlsDeep } from '../common/mask';
import { lookupTable } from '../common/own-keys';

/** NodePayload 1.17's fields (traits included: NodePayload fills it from node.traits). */
const NODE_FIELDS = [
  'bios_interface', 'boot_interface', 'boot_mode', 'clean_step', 'conductor_group', 'console_enabled',
  'console_interface', 'created_at', 'deploy_interface', 'deploy_step', 'description', 'disable_power_off',
  'driver', 'extra', 'fault', 'inspect_interface', 'inspection_finished_at', 'inspection_started_at',
  'instance_uuid', 'last_error', 'lessee', 'maintenance', 'maintenance_reason', 'management_interface', 'name',
  'network_interface', 'owner', 'power_interface', 'power_state', 'properties', 'protected', 'protected_reason',
  'provision_state', 'provision_updated_at', 'raid_interface', 'rescue_interface', 'resource_class', 'retired',
  'retired_reason', 'secure_boot', 'storage_interface', 'target_power_state', 'target_provision_state', 'traits',
  'updated_at', 'uuid', 'vendor_interface',
] as const;

interface PayloadClass {
  readonly version: string;
  readonly fields: readonly string[];
}

const payload = (version: string, fields: readonly string[]): PayloadClass => ({ version, fields });

const PAYLOADS = lookupTable<PayloadClass>({
  NodePayload: payload('1.17', NODE_FIELDS),
  NodeSetPowerStatePayload: payload('1.17', [...NODE_FIELDS, 'to_power']),
  NodeCorrectedPowerStatePayload: payload('1.17', [...NODE_FIELDS, 'from_power']),
  NodeSetProvisionStatePayload: payload('1.18', [...NODE_FIELDS, 'instance_info', 'driver_internal_info', 'event',
    'previous_provision_state', 'previous_target_provision_state']),
  NodeCRUDPayload: payload('1.15', [...NODE_FIELDS, 'chassis_uuid', 'instance_info', 'driver_info']),
  PortCRUDPayload: payload('1.4', ['address', 'created_at', 'extra', 'is_smartnic', 'local_link_connection', 'name',
    'node_uuid', 'physical_network', 'portgroup_uuid', 'pxe_enabled', 'updated_at', 'uuid']),
  PortgroupCRUDPayload: payload('1.0', ['address', 'created_at', 'extra', 'mode', 'name', 'node_uuid', 'properties',
    'standalone_ports_supported', 'updated_at', 'uuid']),
  ChassisCRUDPayload: payload('1.0', ['created_at', 'description', 'extra', 'updated_at', 'uuid']),
  DeployTemplateCRUDPayload: payload('1.0', ['created_at', 'extra', 'name', 'steps', 'updated_at', 'uuid']),
  AllocationCRUDPayload: payload('1.1', ['candidate_nodes', 'created_at', 'extra', 'last_error', 'name', 'node_uuid',
    'owner', 'resource_class', 'state', 'traits', 'updated_at', 'uuid']),
  VolumeConnectorCRUDPayload: payload('1.0', ['connector_id', 'created_at', 'extra', 'node_uuid', 'type', 'updated_at', 'uuid']),
  VolumeTargetCRUDPayload: payload('1.0', ['boot_index', 'created_at', 'extra', 'node_uuid', 'properties', 'updated_at',
    'uuid', 'volume_id', 'volume_type']),
  RunbookCRUDPayload: payload('1.0', ['created_at', 'disable_ramdisk', 'extra', 'name', 'owner', 'public', 'steps',
    'updated_at', 'uuid']),
  InspectionRuleCRUDPayload: payload('1.0', ['actions', 'conditions', 'created_at', 'description', 'phase', 'priority',
    'scope', 'sensitive', 'updated_at', 'uuid']),
});

export type PayloadName = keyof typeof PAYLOADS;

/** oslo.versionedobjects' isotime: seconds precision, `Z` for UTC. */
function isotime(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return value;
}

/** Dicts Ironic's mask_secrets passes through mask_dict_password (node payloads only). */
const MASKED_DICTS = ['instance_info', 'driver_info', 'driver_internal_info'];

function fieldValue(name: string, source: object, extra: Readonly<Record<string, unknown>>): unknown {
  if (Object.hasOwn(extra, name)) return extra[name];
  return Object.hasOwn(source, name) ? (source as Record<string, unknown>)[name] : null;
}

/** The payload's primitive, as obj_to_primitive sends it (every field set; null where unknown). */
export function buildPayload(name: PayloadName, source: object, extra: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
  const cls = PAYLOADS[name];
  const data: Record<string, unknown> = {};
  for (const field of cls.fields) data[field] = isotime(fieldValue(field, source, extra));
  if (name.startsWith('Node')) maskNodeSecrets(data);
  return {
    'ironic_object.name': name,
    'ironic_object.namespace': 'ironic',
    'ironic_object.version': cls.version,
    'ironic_object.data': data,
  };
}

/** notification.mask_secrets: the node's secret dicts masked, instance_info.image_url hidden. */
function maskNodeSecrets(data: Record<string, unknown>): void {
  for (const field of MASKED_DICTS) {
    const value = data[field];
    if (value && typeof value === 'object' && !Array.isArray(value)) data[field] = maskDictPassword(value as Record<string, unknown>);
  }
  const info = data.instance_info;
  if (info && typeof info === 'object') {
    const dict = info as Record<string, unknown>;
    if (Object.hasOwn(dict, 'image_url')) dict.image_url = '******';
    // Beyond Ironic (whose payloads carry it): the configdrive holds user data and passwords, and
    // node views hide it, so notifications do too.
    if (Object.hasOwn(dict, 'configdrive')) dict.configdrive = '******';
  }
  // Beyond Ironic, as everywhere in ironic-ts: URL userinfo (an image or BMC URL's password) is hidden too.
  for (const field of Object.keys(data)) data[field] = maskUrlsDeep(data[field]);
}
