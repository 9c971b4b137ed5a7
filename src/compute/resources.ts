/**
 * What Nova's ironic driver reports to the resource tracker and placement for one node:
 * get_available_resource (_node_resource) and the inventory of update_provider_tree.
 */
import type { IronicNode } from './client';
import { lookupTable } from '../common/own-keys';

/** Nova's canonical architecture names for the aliases operators commonly use. */
const ARCH_ALIASES: Record<string, string> = lookupTable({ amd64: 'x86_64', i386: 'i686', i486: 'i686', i586: 'i686', x86_32: 'i686', x86_32p: 'i686' });

export interface NodeResource {
  uuid: string;
  hypervisor_hostname: string;
  hypervisor_type: 'ironic';
  hypervisor_version: number;
  resource_class: string | null;
  cpu_info: null;
  vcpus: 0;
  vcpus_used: 0;
  local_gb: 0;
  local_gb_used: 0;
  disk_available_least: 0;
  memory_mb: 0;
  memory_mb_used: 0;
  supported_instances: Array<[string, 'baremetal', 'hvm']>;
  stats: Record<string, string | null>;
  numa_topology: null;
}

export interface Inventory {
  total: 1;
  reserved: 0 | 1;
  min_unit: 1;
  max_unit: 1;
  step_size: 1;
  allocation_ratio: 1.0;
}

function canonicalArch(raw: unknown): string | null {
  if (typeof raw !== 'string' || !raw) return null;
  const lower = raw.toLowerCase();
  return ARCH_ALIASES[lower] ?? lower;
}

/** `k1:v1,k2:v2` capabilities, malformed entries skipped as Nova does. */
function capabilityStats(capabilities: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!capabilities) return out;
  for (const item of String(capabilities).split(',')) {
    const parts = item.split(':');
    if (parts.length === 2 && parts[0] && parts[1]) out[parts[0].trim()] = parts[1];
  }
  return out;
}

/** _node_resource: Ironic nodes are whole units, so every amount is 0 and the class carries them. */
export function nodeResource(node: IronicNode): NodeResource {
  const props = node.properties ?? {};
  const arch = canonicalArch(props.cpu_arch);
  return {
    uuid: node.uuid,
    hypervisor_hostname: node.uuid,
    hypervisor_type: 'ironic',
    hypervisor_version: 1,
    resource_class: node.resource_class ?? null,
    cpu_info: null,
    vcpus: 0, vcpus_used: 0, local_gb: 0, local_gb_used: 0, disk_available_least: 0, memory_mb: 0, memory_mb_used: 0,
    supported_instances: arch ? [[arch, 'baremetal', 'hvm']] : [],
    stats: { cpu_arch: (props.cpu_arch as string | undefined) ?? null, ...capabilityStats(props.capabilities) },
    numa_topology: null,
  };
}

/** _node_resources_unavailable: maintenance, bad power state, or not in available. */
export function resourcesUnavailable(n: IronicNode): boolean {
  return n.maintenance || n.power_state === null || n.power_state === 'error'
    || !(n.provision_state === null || n.provision_state === 'available');
}

/** _node_resources_used: an instance is on the node. */
export function resourcesUsed(n: IronicNode): boolean {
  return n.instance_uuid !== null && n.instance_uuid !== undefined;
}

/** utils.normalize_rc_name: runs of non-alphanumerics become `_`, upper case, CUSTOM_ prefix. */
function normalizeResourceClass(rc: string): string {
  return `CUSTOM_${rc.replace(/[^0-9A-Za-z]+/g, '_').toUpperCase()}`;
}

/** update_provider_tree: one unit of the node's class, reserved when unavailable or used. */
export function nodeInventory(n: IronicNode): Record<string, Inventory> {
  if (!n.resource_class) return {};
  const reserved = resourcesUnavailable(n) || resourcesUsed(n);
  return {
    [normalizeResourceClass(n.resource_class)]: { total: 1, reserved: reserved ? 1 : 0, min_unit: 1, max_unit: 1, step_size: 1, allocation_ratio: 1.0 },
  };
}
