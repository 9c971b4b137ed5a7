/**
 * The embedded single-lab default used when a command gets no config file: SQLite under ./data,
 * API and conductor in one process with in-process RPC, noauth on 127.0.0.1:6385, and the
 * hardware types that need no external service.
 */
import * as path from 'node:path';
import type { Overrides } from './config';

export function embeddedDefaults(cwd = process.cwd()): Overrides {
  const dataDir = path.resolve(cwd, 'data');
  return {
    DEFAULT: {
      auth_strategy: 'noauth',
      rpc_transport: 'none',
      state_path: dataDir,
      enabled_hardware_types: ['fake-hardware', 'manual-management', 'redfish', 'ipmi', 'snmp'],
      enabled_bios_interfaces: ['fake', 'no-bios', 'redfish'],
      // ipmi, redfish and snmp support no fake boot or deploy (as in Ironic): they get Ironic's defaults.
      enabled_boot_interfaces: ['fake', 'ipxe', 'pxe', 'redfish-virtual-media'],
      enabled_console_interfaces: ['fake', 'no-console'],
      enabled_deploy_interfaces: ['fake', 'direct', 'ramdisk'],
      enabled_firmware_interfaces: ['fake', 'no-firmware', 'redfish'],
      enabled_inspect_interfaces: ['fake', 'no-inspect', 'redfish'],
      enabled_management_interfaces: ['fake', 'redfish', 'ipmitool'],
      enabled_network_interfaces: ['noop'],
      enabled_power_interfaces: ['fake', 'redfish', 'ipmitool', 'snmp'],
      enabled_raid_interfaces: ['fake', 'no-raid'],
      enabled_rescue_interfaces: ['fake', 'no-rescue'],
      enabled_storage_interfaces: ['noop'],
      enabled_vendor_interfaces: ['fake', 'no-vendor', 'ipmitool', 'redfish'],
      default_network_interface: 'noop',
    },
    api: { host_ip: '127.0.0.1', port: 6385 },
    database: { connection: `sqlite:///${path.join(dataDir, 'ironic.sqlite')}` },
    dhcp: { dhcp_provider: 'none' },
    conductor: { automated_clean: false },
  };
}
