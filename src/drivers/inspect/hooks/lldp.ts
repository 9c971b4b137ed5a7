/**
 * The local-link-connection hook (local_link_connection.py): the switch a NIC is cabled to, read
 * from the LLDP TLVs the ramdisk reports (`[type, hex value]` pairs), fills its port's
 * local_link_connection: the chassis ID (when a MAC) as switch_id, the port ID as port_id, decoded by
 * the TLV structures parse-lldp uses (lldp-tlvs.ts).
 */
import { log } from '../../../common/log';
import { getByAddress } from '../../../db/repositories/ports';
import { updatePortRow } from '../../../db/repositories/conductor-port-queries';
import type { DriverTask, JsonObject } from '../../base';
import { idValue, TLV, TlvDecodeError, TlvParseError } from './lldp-tlvs';
import type { InspectionHook } from './types';

const MAC_CHASSIS_SUBTYPE = 4;

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
      if (type === TLV.PORT_ID && link.port_id === undefined) {
        const portId = idValue('port', data);
        if (portId !== undefined && portId !== null) link.port_id = portId;
      }
      if (type === TLV.CHASSIS_ID && link.switch_id === undefined && data[0] === MAC_CHASSIS_SUBTYPE) {
        link.switch_id = idValue('chassis', data) ?? null;
      }
    } catch (err) {
      if (!(err instanceof TlvParseError) && !(err instanceof TlvDecodeError)) throw err;
      log.warning(`TLV parse error for ${type === TLV.PORT_ID ? 'Port ID' : 'Chassis ID'} for node ${nodeUuid}: ${err.message}`);
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
