/**
 * The parse-lldp hook (hooks/parse_lldp.py): each interface's raw LLDP TLVs (`[type, hex]` pairs,
 * from plugin_data.lldp_raw or the inventory) decoded into plugin_data.parsed_lldp, keyed by
 * interface name. Interface names come from the ramdisk, so the result is a null-prototype object.
 */
import { log } from '../../../common/log';
import { pyRepr } from '../../../common/python/repr';
import { pyTruthy } from '../../../common/python/truthiness';
import type { JsonObject } from '../../base';
import { LldpParser, type NvDict } from './lldp-parsers';
import { TlvDecodeError } from './lldp-tlvs';
import type { InspectionHook } from './types';

function pyError(name: string, message: string): Error {
  return Object.assign(new Error(message), { name });
}

/** binascii.a2b_hex; null for a value that is not a string (Python's TypeError, which is skipped). */
function hexBytes(value: unknown): Uint8Array | null {
  if (typeof value !== 'string') return null;
  if (!/^[\x00-\x7f]*$/.test(value)) throw pyError('ValueError', 'string argument should contain only ASCII characters');
  if (value.length % 2) throw pyError('Error', 'Odd-length string');
  if (!/^[0-9a-fA-F]*$/.test(value)) throw pyError('Error', 'Non-hexadecimal digit found');
  return Uint8Array.from(Buffer.from(value, 'hex'));
}

/** `for tlv_type, tlv_value in tlvs`: each entry must be a pair. */
function pair(entry: unknown): [unknown, unknown] {
  if (!Array.isArray(entry) && typeof entry !== 'string') {
    throw pyError('TypeError', `cannot unpack non-iterable ${entry === null ? 'NoneType' : typeof entry} object`);
  }
  const items = [...entry] as unknown[];
  if (items.length < 2) throw pyError('ValueError', `not enough values to unpack (expected 2, got ${items.length})`);
  if (items.length > 2) throw pyError('ValueError', 'too many values to unpack (expected 2)');
  return [items[0], items[1]];
}

/** The TLV type as a dict key: Python's True is 1. */
function tlvType(value: unknown): number | null {
  if (typeof value === 'boolean') return Number(value);
  return typeof value === 'number' ? value : null;
}

function parseTlvs(tlvs: unknown, nodeUuid: string): NvDict {
  if (!Array.isArray(tlvs)) throw pyError('TypeError', `'${typeof tlvs}' object is not iterable`);
  const parser = new LldpParser(nodeUuid);
  for (const entry of tlvs) {
    const [type, value] = pair(entry);
    const data = hexBytes(value);
    if (!data) {
      log.warning(`TLV value for TLV type ${pyRepr(type)} is not in correct format, value must be in hexadecimal: ` +
        `argument should be bytes, buffer or ASCII string. Node: ${nodeUuid}`);
      continue;
    }
    const code = tlvType(type);
    try {
      const handled = code !== null && parser.parseTlv(code, data);
      log.debug(handled ? `Handled TLV type ${pyRepr(type)}. Node: ${nodeUuid}` : `LLDP TLV type ${pyRepr(type)} not handled. Node: ${nodeUuid}`);
    } catch (err) {
      if (!(err instanceof TlvDecodeError)) throw err;
      log.warning(`LLDP TLV type ${pyRepr(type)} from Node '${nodeUuid}' can't be decoded: ${err.message}`);
    }
  }
  return parser.values;
}

/** An interface name as a JSON key (json.dumps turns None/int keys into text). */
function keyOf(name: unknown): string {
  return typeof name === 'string' ? name : JSON.stringify(name ?? null);
}

function parsedLldp(pluginData: JsonObject): Record<string, unknown> {
  const out = Object.create(null) as Record<string, unknown>;
  const current = Object.hasOwn(pluginData, 'parsed_lldp') ? pluginData.parsed_lldp : undefined;
  if (pyTruthy(current) && current !== null && typeof current === 'object' && !Array.isArray(current)) {
    for (const [k, v] of Object.entries(current)) out[k] = v;
  }
  return out;
}

export const parseLldpHook: InspectionHook = {
  name: 'parse-lldp',
  async run(task, inventory, pluginData) {
    const raw = Object.hasOwn(pluginData, 'lldp_raw') && pyTruthy(pluginData.lldp_raw) ? pluginData.lldp_raw : {};
    if (!Object.hasOwn(inventory, 'interfaces')) throw pyError('KeyError', "'interfaces'");
    const interfaces = Array.isArray(inventory.interfaces) ? inventory.interfaces as JsonObject[] : [];
    let parsed: Record<string, unknown> | null = null;
    for (const iface of interfaces) {
      if (!Object.hasOwn(iface, 'name')) throw pyError('KeyError', "'name'");
      const name = keyOf(iface.name);
      const fromRaw = raw !== null && typeof raw === 'object' && !Array.isArray(raw) && Object.hasOwn(raw, name)
        ? (raw as JsonObject)[name] : undefined;
      const tlvs = pyTruthy(fromRaw) ? fromRaw : (Object.hasOwn(iface, 'lldp') ? iface.lldp : null);
      if (tlvs === null || tlvs === undefined) {
        log.warning(`No LLDP Data found for interface ${name} of node ${task.node.uuid}`);
        continue;
      }
      log.debug(`Processing LLDP Data for interface ${name} of node ${task.node.uuid}`);
      const nv = parseTlvs(tlvs, task.node.uuid);
      if (!nv.size) continue;
      parsed ??= parsedLldp(pluginData);
      parsed[name] = Object.fromEntries(nv);
    }
    if (parsed) pluginData.parsed_lldp = parsed as JsonObject;
  },
};
