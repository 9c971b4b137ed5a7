/** The hooks that keep the node's ports in line with the inventory (ports.py, physical_network.py). */
import { BlockList, isIP } from 'node:net';
import { MACAlreadyExists } from '../../../common/errors';
import { log } from '../../../common/log';
import { deletePortRow, insertPort, portsOfNode, updatePortRow } from '../../../db/repositories/conductor-port-queries';
import type { DriverTask, JsonObject } from '../../base';
import type { InspectionHook } from './types';

type Interfaces = Record<string, JsonObject>;

/** add_ports: a port per validated interface, an existing MAC left alone. */
async function addPorts(task: DriverTask, interfaces: Interfaces): Promise<void> {
  for (const iface of Object.values(interfaces)) {
    const mac = String(iface.mac_address).toLowerCase();
    const extra = iface.client_id ? { 'client-id': iface.client_id } : {};
    try {
      await insertPort(task.ctx.db, { address: mac, node_id: task.node.id, pxe_enabled: Boolean(iface.pxe_enabled), extra });
      log.info(`Port created for MAC address ${mac} for node ${task.node.uuid}${iface.pxe_enabled ? ' (PXE booting)' : ''}`);
    } catch (err) {
      if (!(err instanceof MACAlreadyExists)) throw err;
      log.info(`Port already exists for MAC address ${mac} for node ${task.node.uuid}`);
    }
  }
}

/** update_ports: by [inspector]keep_ports, ports not reported go; pxe_enabled follows the inventory. */
async function updatePorts(task: DriverTask, all: Interfaces, validMacs: string[]): Promise<void> {
  const conf = task.ctx.conf;
  const keep = conf.str('inspector', 'keep_ports');
  const lower = (m: unknown): string => String(m).toLowerCase();
  let expected: Set<string> | null = null;
  if (keep === 'present') expected = new Set(Object.values(all).map((i) => lower(i.mac_address)));
  else if (keep === 'added') expected = new Set(validMacs.map(lower));
  const pxeMacs = new Set(Object.values(all).filter((i) => i.pxe_enabled).map((i) => lower(i.mac_address)));
  for (const port of await portsOfNode(task.ctx.db, task.node.id)) {
    const address = port.address ?? '';
    if (expected && expected.size > 0 && !expected.has(address)) {
      log.info(`Deleting port ${port.uuid} of node ${task.node.uuid} as its MAC ${port.address} is not in the expected ` +
        `MAC list [${[...expected].sort().join(', ')}]`);
      await deletePortRow(task.ctx.db, port.id);
    } else if (conf.bool('inspector', 'update_pxe_enabled')) {
      const pxe = pxeMacs.has(address);
      if (pxe !== port.pxe_enabled) await updatePortRow(task.ctx.db, port.id, { pxe_enabled: pxe });
    }
  }
}

export const portsHook: InspectionHook = {
  name: 'ports',
  dependencies: ['validate-interfaces'],
  async run(task, _inventory, pluginData) {
    if (task.ctx.conf.str('inspector', 'add_ports') !== 'disabled') {
      await addPorts(task, pluginData.valid_interfaces as Interfaces);
    }
    await updatePorts(task, pluginData.all_interfaces as Interfaces, pluginData.macs as string[]);
  },
};

/** The physical network of the first of the interface's addresses that [inspector]physical_network_cidr_map maps. */
function physicalNetworkOf(cidrMap: string[], iface: JsonObject): string | null {
  const ips = [iface.ipv4_address, iface.ipv6_address].filter((ip): ip is string => typeof ip === 'string' && isIP(ip) !== 0);
  for (const ip of ips) {
    for (const entry of cidrMap) {
      const at = entry.lastIndexOf(':');
      const [network, prefix] = entry.slice(0, at).split('/');
      const family = isIP(network) === 6 ? 'ipv6' : 'ipv4';
      if (family !== (isIP(ip) === 6 ? 'ipv6' : 'ipv4')) continue;
      const list = new BlockList();
      list.addSubnet(network, Number(prefix ?? (family === 'ipv6' ? 128 : 32)), family);
      if (list.check(ip, family)) return entry.slice(at + 1);
    }
  }
  return null;
}

export const physicalNetworkHook: InspectionHook = {
  name: 'physical-network',
  dependencies: ['validate-interfaces'],
  async run(task, inventory, pluginData) {
    const cidrMap = task.ctx.conf.list('inspector', 'physical_network_cidr_map');
    const ports = new Map((await portsOfNode(task.ctx.db, task.node.id)).map((p) => [p.address, p]));
    const all = pluginData.all_interfaces as Interfaces;
    for (const iface of (inventory.interfaces ?? []) as JsonObject[]) {
      if (!Object.hasOwn(all, String(iface.name))) continue;
      const port = ports.get(String(iface.mac_address));
      if (!port) continue;
      const physnet = physicalNetworkOf(cidrMap, iface);
      if (physnet !== null && port.physical_network !== physnet) {
        await updatePortRow(task.ctx.db, port.id, { physical_network: physnet });
      }
    }
  },
};
