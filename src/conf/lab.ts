/**
 * Lab mode ([lab]provisioning_interface, an ironic-ts addition): one provisioning network that this
 * conductor serves alone. The options an operator would otherwise set one by one get lab values
 * unless the config file sets them: dnsmasq DHCP run by the conductor on that interface, the
 * built-in TFTP and HTTP servers on its address, the ipmi and redfish hardware types with ipxe/pxe
 * boot, the direct deploy, agent inspection and rescue.
 */
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import type { Config } from './config';
import type { GroupName, OptionName, OptionValue } from './registry';

interface LabInterface {
  name: string;
  address: string;
  /** Prefix length of the interface's IPv4 subnet. */
  prefix: number;
}

interface IpAddrShow {
  addr_info?: Array<{ family?: string; local?: string; prefixlen?: number }>;
}

/**
 * The interface's first IPv4 address, or an error naming what is wrong. Read with iproute2, since
 * Node lists only interfaces with a carrier, and a lab bridge has none until a machine is on it.
 */
export function labInterface(name: string): LabInterface {
  let shown: IpAddrShow[];
  try {
    shown = JSON.parse(execFileSync('ip', ['-json', '-4', 'address', 'show', 'dev', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })) as IpAddrShow[];
  } catch {
    throw new Error(`[lab]provisioning_interface: no network interface named ${name}`);
  }
  const v4 = shown[0]?.addr_info?.find((a) => a.family === 'inet' && a.local && a.prefixlen !== undefined);
  if (!v4?.local || v4.prefixlen === undefined) throw new Error(`[lab]provisioning_interface: ${name} has no IPv4 address`);
  return { name, address: v4.local, prefix: v4.prefixlen };
}

function toInt(ip: string): number {
  return ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

function toIp(n: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');
}

/** The upper half of the interface's subnet, leaving the lower half to static addresses. */
export function defaultDhcpRange(iface: LabInterface, leaseTime: string): string {
  if (iface.prefix > 29) throw new Error(`[lab]provisioning_interface: ${iface.name}'s /${iface.prefix} subnet is too small for DHCP`);
  const size = 2 ** (32 - iface.prefix);
  const network = toInt(iface.address) - (toInt(iface.address) % size);
  const mask = toIp(2 ** 32 - size);
  return `${toIp(network + size / 2)},${toIp(network + size - 2)},${mask},${leaseTime}`;
}

type Defaults = { [G in GroupName]?: { [N in OptionName<G>]?: OptionValue } };

function labDefaults(conf: Config, iface: LabInterface): Defaults {
  const state = conf.str('DEFAULT', 'state_path');
  const labDir = path.join(state, 'lab');
  const httpPort = conf.int('deploy', 'builtin_http_port');
  return {
    DEFAULT: {
      my_ip: iface.address,
      rpc_transport: 'none',
      enabled_hardware_types: ['ipmi', 'redfish'],
      enabled_boot_interfaces: ['ipxe', 'pxe', 'redfish-virtual-media'],
      enabled_deploy_interfaces: ['direct', 'ramdisk'],
      enabled_inspect_interfaces: ['agent', 'no-inspect', 'redfish'],
      enabled_management_interfaces: ['ipmitool', 'redfish'],
      enabled_power_interfaces: ['ipmitool', 'redfish'],
      enabled_rescue_interfaces: ['agent', 'no-rescue'],
      enabled_network_interfaces: ['noop'],
      default_boot_interface: 'ipxe',
      default_deploy_interface: 'direct',
      default_inspect_interface: 'agent',
      default_network_interface: 'noop',
    },
    agent: { certificates_path: path.join(labDir, 'certificates') },
    dhcp: { dhcp_provider: 'dnsmasq' },
    dnsmasq: {
      dhcp_hostsdir: path.join(labDir, 'dnsmasq', 'hostsdir.d'),
      dhcp_optsdir: path.join(labDir, 'dnsmasq', 'optsdir.d'),
      dhcp_leasefile: path.join(labDir, 'dnsmasq', 'dnsmasq.leases'),
    },
    pxe: {
      builtin_tftp_server: true,
      builtin_tftp_host: iface.address,
      tftp_server: iface.address,
      tftp_root: path.join(labDir, 'tftpboot'),
      tftp_master_path: path.join(labDir, 'tftp_master_images'),
      images_path: path.join(labDir, 'images'),
      instance_master_path: path.join(labDir, 'master_images'),
    },
    deploy: {
      builtin_http_server: true,
      builtin_http_host: iface.address,
      http_root: path.join(labDir, 'httpboot'),
      http_url: `http://${iface.address}:${httpPort}`,
    },
  };
}

/**
 * With [lab]provisioning_interface set, gives every option of the lab set that the config does
 * not set its lab value. Returns the interface, or null outside lab mode.
 */
export function applyLabMode(conf: Config): LabInterface | null {
  const name = conf.optStr('lab', 'provisioning_interface');
  if (!name) return null;
  const iface = labInterface(name);
  const defaults = labDefaults(conf, iface);
  for (const group of Object.keys(defaults) as GroupName[]) {
    const options = defaults[group] as Record<string, OptionValue>;
    for (const [option, value] of Object.entries(options)) {
      const typed = option as OptionName<typeof group>;
      if (!conf.has(group, typed)) conf.set(group, typed, value);
    }
  }
  return iface;
}
