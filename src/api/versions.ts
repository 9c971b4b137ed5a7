/**
 * API microversions: the range served, pinning by `[DEFAULT]pin_release_version` as Ironic does,
 * and the named gates the controllers check.
 */
import { lookupTable } from '../common/own-keys';
export const MIN_MINOR = 1;
/** The highest version whose every gated behaviour ironic-ts implements. */
export const MAX_MINOR = 82;

/** Ironic's release mapping (release name → API microversion), for pin_release_version. */
const RELEASE_API: Record<string, number> = lookupTable({
  '9.2': 35, '10.0': 36, '10.1': 38, '11.0': 43, '11.1': 46, '12.0': 49, '12.1': 56, '12.2': 58,
  '13.0': 58, '14.0': 61, '15.0': 65, '15.1': 67, '16.0': 68, '16.1': 68, '16.2': 69, '17.0': 72,
  '18.0': 74, '18.1': 75, '18.2': 78, '19.0': 78, '20.0': 78, '20.1': 78, '20.2': 78, '21.0': 79,
  '21.1': 80, '21.2': 80, '21.3': 81, '21.4': 82, yoga: 78, zed: 80, antelope: 82, '2023.1': 82,
  '23.0': 87, '2023.2': 87, '24.1': 90, '2024.1': 90, '26.1': 93, '2024.2': 93, '29.0': 96,
  '2025.1': 96, '32.0': 101, '2025.2': 101, '35.0': 111, '2026.1': 111,
});

export function maxMinorFor(pinRelease: string | null): number {
  const pinned = pinRelease ? RELEASE_API[pinRelease] : undefined;
  return pinned !== undefined ? Math.min(pinned, MAX_MINOR) : MAX_MINOR;
}

export function versionString(minor: number): string {
  return `1.${minor}`;
}

/** Minimum minor versions of gated behaviour, named as Ironic names them. */
export const V = {
  DRIVER_INTERNAL_INFO: 3,
  MANAGEABLE_STATE: 4,
  NODE_NAME: 5,
  INSPECT_STATE: 6,
  NODE_CLEAN: 7,
  FIELDS_SELECTOR: 8,
  PROVISION_STATE_FILTER: 9,
  RFC3986_NODE_NAME: 10,
  ENROLL_STATE: 11,
  RAID_CONFIG: 12,
  ABORT_OPERATION: 13,
  LINKS_NODE_STATES_DRIVER_PROPS: 14,
  MANUAL_CLEANING: 15,
  DRIVER_FILTER: 16,
  ADOPTION: 17,
  PORT_INTERNAL_INFO: 18,
  PORT_ADVANCED_NET_FIELDS: 19,
  NETWORK_INTERFACE: 20,
  RESOURCE_CLASS: 21,
  LOOKUP_HEARTBEAT: 22,
  PORTGROUP: 23,
  PORTGROUP_SUBRESOURCES: 24,
  UNSET_CHASSIS: 25,
  PORTGROUP_MODE_PROPERTIES: 26,
  SOFT_POWER_OFF: 27,
  VIFS: 28,
  INJECT_NMI: 29,
  DYNAMIC_DRIVERS: 30,
  DYNAMIC_INTERFACES: 31,
  VOLUME: 32,
  STORAGE_INTERFACE: 33,
  PORT_PHYSICAL_NETWORK: 34,
  REBUILD_CONFIG_DRIVE: 35,
  AGENT_VERSION_HEARTBEAT: 36,
  NODE_TRAITS: 37,
  RESCUE_INTERFACE: 38,
  INSPECT_WAIT: 39,
  BIOS_INTERFACE: 40,
  INSPECT_ABORT: 41,
  FAULT: 42,
  DETAIL_QUERY: 43,
  DEPLOY_STEP: 44,
  RESET_INTERFACES: 45,
  CONDUCTOR_GROUP: 46,
  AUTOMATED_CLEAN: 47,
  PROTECTED: 48,
  CONDUCTORS: 49,
  OWNER: 50,
  DESCRIPTION: 51,
  ALLOCATIONS: 52,
  SMARTNIC_PORT: 53,
  EVENTS: 54,
  DEPLOY_TEMPLATES: 55,
  BUILD_CONFIGDRIVE: 56,
  ALLOCATION_UPDATE: 57,
  ALLOCATION_BACKFILL: 58,
  CONFIGDRIVE_VENDOR_DATA: 59,
  ALLOCATION_OWNER: 60,
  RETIRED: 61,
  AGENT_TOKEN: 62,
  INDICATORS: 63,
  LOCAL_LINK_NETWORK_TYPE: 64,
  LESSEE: 65,
  NETWORK_DATA: 66,
  VIF_PORT_PORTGROUP: 67,
  AGENT_VERIFY_CA: 68,
  DEPLOY_STEPS_IN_PROVISION: 69,
  DISABLE_RAMDISK: 70,
  RBAC_SCOPES: 71,
  AGENT_STATUS: 72,
  DEPLOY_UNDEPLOY_VERBS: 73,
  BIOS_REGISTRY: 74,
  BOOT_MODE: 75,
  CHANGE_BOOT_MODE: 76,
  DRIVER_FIELDS: 77,
  NODE_HISTORY: 78,
  ALLOCATION_NAME_MATCH: 79,
  PROJECT_NODE_CREATE: 80,
  NODE_INVENTORY: 81,
  SHARDS: 82,
  /** Above MAX_MINOR today: gates what stays hidden until it is implemented. */
  FIRMWARE_INTERFACE: 86,
} as const;
