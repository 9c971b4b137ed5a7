/** The hooks that check the ramdisk's report and its network interfaces (ramdisk_error.py, validate_interfaces.py). */
import { isIP } from 'node:net';
import { HardwareInspectionFailure, InvalidNodeInventory } from '../../../common/errors';
import { log } from '../../../common/log';
import { emptyDict } from '../../../common/own-keys';
import { pyStr } from '../../../common/python/str';
import type { DriverTask, JsonObject } from '../../base';
import { dictAt, type InspectionHook } from './types';

const MAC = /^[0-9a-f]{2}(:[0-9a-f]{2}){5}$/;

export const ramdiskErrorHook: InspectionHook = {
  name: 'ramdisk-error',
  async preprocess(_task, _inventory, pluginData) {
    if (pluginData.error) {
      throw new HardwareInspectionFailure({ error: `Ramdisk reported error: ${pyStr(pluginData.error)}` });
    }
  },
};

/** utils.is_loopback: an IP address in a loopback range. */
export function isLoopback(address: string): boolean {
  const kind = isIP(address);
  if (kind === 4) return address.startsWith('127.');
  if (kind === 6) return /^(0{0,4}:){2,7}0{0,3}1$|^::1$/i.test(address);
  return false;
}

/** get_pxe_mac: the boot interface's MAC, pxelinux's `01-aa-bb-...` form unwrapped. */
function pxeMac(inventory: JsonObject): string | null {
  const raw = dictAt(inventory, 'boot').pxe_interface;
  if (typeof raw !== 'string' || raw === '') return null;
  return raw.includes('-') ? raw.slice(raw.indexOf('-') + 1).replace(/-/g, ':').toLowerCase() : raw;
}

/** get_interfaces: interfaces with a name and a valid MAC, by name, pxe_enabled marked. */
function interfacesOf(task: DriverTask, inventory: JsonObject): Record<string, JsonObject> {
  if (!Object.hasOwn(inventory, 'interfaces')) {
    throw new InvalidNodeInventory({ node: task.node.uuid, reason: 'no interfaces present in inventory' });
  }
  const pxe = pxeMac(inventory);
  const result: Record<string, JsonObject> = emptyDict();
  for (const iface of (inventory.interfaces ?? []) as JsonObject[]) {
    const name = iface.name;
    const mac = iface.mac_address;
    let ipv6 = iface.ipv6_address;
    if (typeof ipv6 === 'string' && ipv6.includes('%')) ipv6 = ipv6.split('%')[0];
    if (!name) {
      log.error(`Malformed interface record for node ${task.node.uuid}: ${JSON.stringify(iface)}`);
      continue;
    }
    if (!mac || typeof mac !== 'string' || !MAC.test(mac.toLowerCase())) continue;
    const lower = mac.toLowerCase();
    result[String(name)] = { ...iface, pxe_enabled: lower === pxe, ipv6_address: ipv6 ?? null };
  }
  return result;
}

/** validate_interfaces: drops loopbacks and, by [inspector]add_ports, non-PXE or address-less NICs. */
function validInterfaces(task: DriverTask, inventory: JsonObject, all: Record<string, JsonObject>): Record<string, JsonObject> {
  if (Object.keys(all).length === 0) {
    throw new InvalidNodeInventory({ node: task.node.uuid, reason: 'no valid network interfaces' });
  }
  const addPorts = task.ctx.conf.str('inspector', 'add_ports');
  const pxe = pxeMac(inventory);
  if (!pxe && addPorts === 'pxe') {
    log.warning(`No boot interface provided in the inventory for node ${task.node.uuid}, will add all ports with IP addresses`);
  }
  const result: Record<string, JsonObject> = emptyDict();
  for (const [name, iface] of Object.entries(all)) {
    const ip = iface.ipv4_address || iface.ipv6_address;
    const isPxe = iface.pxe_enabled ?? true;
    if (name === 'lo' || (typeof ip === 'string' && isLoopback(ip))) continue;
    if (addPorts === 'pxe' && pxe && !isPxe) continue;
    if (addPorts === 'active' && !ip) continue;
    result[name] = { ...iface };
  }
  if (Object.keys(result).length === 0) {
    throw new InvalidNodeInventory({
      node: task.node.uuid, reason: `no network interfaces match the configuration (add_ports set to "${addPorts}")`,
    });
  }
  return result;
}

export const validateInterfacesHook: InspectionHook = {
  name: 'validate-interfaces',
  async preprocess(task, inventory, pluginData) {
    const all = interfacesOf(task, inventory);
    const valid = validInterfaces(task, inventory, all);
    pluginData.all_interfaces = all;
    pluginData.valid_interfaces = valid;
    pluginData.macs = Object.values(valid).map((iface) => iface.mac_address);
  },
};
