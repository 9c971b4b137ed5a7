/**
 * The local-link-connection hook (local_link_connection.py): the switch a NIC is cabled to, read
 * from the LLDP TLVs the ramdisk reports (`[type, hex value]` pairs), fills its port's
 * local_link_connection: the chassis ID (when a MAC) as switch_id, the port ID as port_id. Only the
 * two TLVs this needs are decoded (lldp_tlvs.py ChassisId / PortId).
 */
import { log } from '../../../common/log';
import { getByAddress } from '../../../db/repositories/ports';
import { updatePortRow } from '../../../db/repositories/conductor-port-queries';
import type { DriverTask, JsonObject } from '../../base';
import type { InspectionHook } from './types';

const TLV_CHASSIS_ID = 1;
const TLV_PORT_ID = 2;
const STRING_SUBTYPES = { chassis: [1, 2, 3, 6, 7], port: [1, 2, 5, 7] } as const;
const MAC_SUBTYPE = { chassis: 4, port: 3 } as const;
const ADDRESS_SUBTYPE = { chassis: 5, port: 4 } as const;

class TlvParseError extends Error {}

function macText(bytes: Buffer): string {
  if (bytes.length < 6) throw new TlvParseError('MAC address too short');
  return [...bytes.subarray(0, 6)].map((b) => b.toString(16).padStart(2, '0')).join(':');
}

/** IANAAddress: a family byte, then an IPv4, IPv6 or MAC address. */
function ianaAddress(bytes: Buffer): string {
  const family = bytes[0];
  const rest = bytes.subarray(1);
  if (family === 1 && rest.length >= 4) return [...rest.subarray(0, 4)].join('.');
  if (family === 2 && rest.length >= 16) {
    const words = Array.from({ length: 8 }, (_, i) => rest.readUInt16BE(i * 2).toString(16));
    // The URL parser prints an IPv6 address in its compressed form, as netaddr does.
    return new URL(`http://[${words.join(':')}]/`).hostname.slice(1, -1);
  }
  if (family === 6) return macText(rest);
  throw new TlvParseError(`unknown IANA address family ${family}`);
}

/** The (subtype, value) of a chassis or port ID TLV; null for a MAC chassis ID's absence. */
function decodeId(kind: 'chassis' | 'port', data: Buffer): { subtype: number; value: string } {
  const subtype = data[0];
  const body = data.subarray(1);
  if ((STRING_SUBTYPES[kind] as readonly number[]).includes(subtype)) return { subtype, value: body.toString('utf8') };
  if (subtype === MAC_SUBTYPE[kind]) return { subtype, value: macText(body) };
  if (subtype === ADDRESS_SUBTYPE[kind]) return { subtype, value: ianaAddress(body) };
  throw new TlvParseError(`unknown ${kind} ID subtype ${String(subtype)}`);
}

/** switch_id and port_id from the TLVs; null when any TLV is malformed (the port is left alone). */
function linkFromTlvs(tlvs: unknown[], nodeUuid: string): JsonObject | null {
  const link: JsonObject = {};
  for (const entry of tlvs) {
    const [type, hex] = Array.isArray(entry) ? entry : [];
    if (typeof hex !== 'string' || !/^([0-9a-fA-F]{2})*$/.test(hex)) {
      log.warning(`TLV value for TLV type ${String(type)} is not in correct format. Ensure that the TLV value is in ` +
        `hexadecimal format when sent to ironic. Node: ${nodeUuid}`);
      return null;
    }
    const data = Buffer.from(hex, 'hex');
    try {
      if (type === TLV_PORT_ID && link.port_id === undefined) link.port_id = decodeId('port', data).value;
      if (type === TLV_CHASSIS_ID && link.switch_id === undefined) {
        const id = decodeId('chassis', data);
        if (id.subtype === MAC_SUBTYPE.chassis) link.switch_id = id.value;
      }
    } catch (err) {
      if (!(err instanceof TlvParseError)) throw err;
      log.warning(`TLV parse error for ${type === TLV_PORT_ID ? 'Port ID' : 'Chassis ID'} for node ${nodeUuid}: ${err.message}`);
      return null;
    }
  }
  return link;
}

async function patchPort(task: DriverTask, mac: string, tlvs: unknown[]): Promise<void> {
  // As Port.get_by_address: the MAC as reported, so an upper-case one finds no port.
  const port = await getByAddress(task.ctx.db, mac);
  if (!port) return;
  const link = linkFromTlvs(tlvs, task.node.uuid);
  if (!link) return;
  const current = { ...(port.local_link_connection ?? {}) };
  let changed = false;
  for (const [key, value] of Object.entries(link)) {
    if (Object.hasOwn(current, key)) continue;
    current[key] = value;
    changed = true;
  }
  if (changed) await updatePortRow(task.ctx.db, port.id, { local_link_connection: current });
}

export const localLinkConnectionHook: InspectionHook = {
  name: 'local-link-connection',
  dependencies: ['validate-interfaces'],
  async run(task, inventory, pluginData) {
    const raw = (pluginData.lldp_raw ?? {}) as JsonObject;
    const all = (pluginData.all_interfaces ?? {}) as JsonObject;
    for (const iface of (inventory.interfaces ?? []) as JsonObject[]) {
      const name = String(iface.name);
      if (!Object.hasOwn(all, name)) continue;
      const tlvs = (Object.hasOwn(raw, name) && raw[name]) || iface.lldp;
      if (!Array.isArray(tlvs)) {
        log.warning(`No LLDP data found for interface ${String(iface.mac_address)} of node ${task.node.uuid}`);
        continue;
      }
      await patchPort(task, String(iface.mac_address), tlvs);
    }
  },
};
