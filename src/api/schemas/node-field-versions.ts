/**
 * api utils VERSIONED_FIELDS as check_allowed_fields applies them outside the node controller (the
 * conductors list checks `fields` and `sort_key` against the node field versions).
 */
import { NotAcceptable } from '../../common/errors';
import { V } from '../versions';

const VERSIONED_FIELDS: Record<string, number> = {
  driver_internal_info: V.DRIVER_INTERNAL_INFO, name: V.NODE_NAME, inspection_finished_at: V.INSPECT_STATE,
  inspection_started_at: V.INSPECT_STATE, clean_step: V.NODE_CLEAN, raid_config: V.RAID_CONFIG,
  target_raid_config: V.RAID_CONFIG, network_interface: V.NETWORK_INTERFACE, resource_class: V.RESOURCE_CLASS,
  storage_interface: V.STORAGE_INTERFACE, traits: V.NODE_TRAITS, rescue_interface: V.RESCUE_INTERFACE,
  bios_interface: V.BIOS_INTERFACE, fault: V.FAULT, deploy_step: V.DEPLOY_STEP, conductor_group: V.CONDUCTOR_GROUP,
  automated_clean: V.AUTOMATED_CLEAN, protected: V.PROTECTED, protected_reason: V.PROTECTED, conductor: V.CONDUCTORS,
  owner: V.OWNER, description: V.DESCRIPTION, allocation_uuid: V.ALLOCATIONS, events: V.EVENTS, retired: V.RETIRED,
  retired_reason: V.RETIRED, lessee: V.LESSEE, network_data: V.NETWORK_DATA, boot_mode: V.BOOT_MODE,
  secure_boot: V.BOOT_MODE, shard: V.SHARDS, boot_interface: V.DYNAMIC_INTERFACES,
  console_interface: V.DYNAMIC_INTERFACES, deploy_interface: V.DYNAMIC_INTERFACES, inspect_interface: V.DYNAMIC_INTERFACES,
  management_interface: V.DYNAMIC_INTERFACES, power_interface: V.DYNAMIC_INTERFACES, raid_interface: V.DYNAMIC_INTERFACES,
  vendor_interface: V.DYNAMIC_INTERFACES,
};

export function checkNodeVersionedFields(version: number, fields: readonly string[] | null): void {
  if (fields === null) return;
  for (const f of fields) {
    const minor = VERSIONED_FIELDS[f];
    if (minor !== undefined && version < minor) throw new NotAcceptable();
  }
}
