/**
 * LLDP TLVs to name/value pairs (inspector/lldp_parsers.py): the 802.1AB basic management set,
 * with the 802.1Q and 802.3 organisationally specific TLVs. A value once set is kept (the first
 * TLV wins); the list values (management addresses, VLANs...) collect every TLV. A malformed TLV
 * is skipped with a warning.
 */
import { log } from '../../../common/log';
import {
  autonegCapabilities, bits, hexText, ianaAddress, idValue, OPER_MAU_TYPES, OUI_802_1, OUI_802_3, TLV,
  TlvDecodeError, TlvParseError, TlvReader, utf8,
} from './lldp-tlvs';

type NvValue = string | number | boolean | null | NvValue[] | { [key: string]: NvValue };

/** The parsed fields of one interface, keyed by Ironic's names (switch_port_id, ...). */
export type NvDict = Map<string, NvValue>;

/** A TLV's handler; `len` asks for an exact length. Null handlers mark TLVs handled but unused. */
interface Entry { name: string; len?: number; handle: ((nv: Nv, data: Uint8Array) => void) | null }

class TlvValueError extends Error {}

/** The name/value dictionary the parsers share (set_value / append_value). */
class Nv {
  constructor(readonly dict: NvDict, readonly nodeUuid: string) {}

  set(name: string, value: NvValue): void {
    if (!this.dict.has(name)) this.dict.set(name, value);
  }

  append(name: string, value: NvValue): void {
    const list = this.dict.get(name);
    if (Array.isArray(list)) list.push(value);
    else if (!this.dict.has(name)) this.dict.set(name, [value]);
  }
}

const CAPABILITY_BITS: ReadonlyArray<[number, string]> = [
  [14, 'Repeater'], [13, 'Bridge'], [12, 'WLAN'], [11, 'Router'], [10, 'Telephone'], [9, 'DOCSIS cable device'],
  [8, 'Station only'], [7, 'C-Vlan'], [6, 'S-Vlan'], [5, 'TPMR'],
];

function capabilities(flags: boolean[]): string[] {
  return CAPABILITY_BITS.filter(([bit]) => flags[bit]).map(([, name]) => name);
}

function nestedId(kind: 'chassis' | 'port', name: string) {
  return (nv: Nv, data: Uint8Array): void => {
    const value = idValue(kind, data);
    if (value === undefined) throw Object.assign(new Error("'NoneType' object has no attribute 'value'"), { name: 'AttributeError' });
    nv.set(name, value);
  };
}

function text(name: string) {
  return (nv: Nv, data: Uint8Array): void => nv.set(name, utf8(data));
}

function u16(name: string) {
  return (nv: Nv, data: Uint8Array): void => nv.set(name, new TlvReader(data).u16());
}

/** Dot1_LinkAggregationId, also used by the (deprecated) 802.3 link aggregation TLV. */
function linkAggregation(nv: Nv, data: Uint8Array): void {
  const r = new TlvReader(data);
  const status = bits(r.bytes(1));
  const portId = r.u32();
  nv.set('switch_port_link_aggregation_enabled', status[6]);
  nv.set('switch_port_link_aggregation_support', status[7]);
  nv.set('switch_port_link_aggregation_id', portId);
}

const DOT1: ReadonlyMap<number, Entry> = new Map<number, Entry>([
  [1, { name: 'switch_port_untagged_vlan_id', handle: u16('switch_port_untagged_vlan_id') }],
  [2, {
    name: 'switch_port_protocol', len: 3, handle(nv, data) {
      const r = new TlvReader(data);
      const flags = bits(r.bytes(1));
      const vlanId = r.u16();
      nv.set('switch_port_protocol_vlan_enabled', flags[5]);
      nv.set('switch_port_protocol_vlan_support', flags[6]);
      nv.append('switch_port_protocol_vlan_ids', vlanId);
    },
  }],
  [3, {
    name: 'None', handle(nv, data) {
      const r = new TlvReader(data);
      const id = r.u16();
      const name = utf8(r.bytes(r.u8())).replace(/\0+$/, '');
      nv.append('switch_port_vlans', { name, id });
    },
  }],
  [4, {
    name: 'switch_protocol_identities', handle(nv, data) {
      const r = new TlvReader(data);
      nv.append('switch_protocol_identities', hexText(r.bytes(r.u8())));
    },
  }],
  [6, { name: 'switch_port_management_vlan_id', handle: u16('switch_port_management_vlan_id') }],
  [7, { name: 'switch_port_link_aggregation', len: 5, handle: linkAggregation }],
]);

const DOT3: ReadonlyMap<number, Entry> = new Map<number, Entry>([
  [1, {
    name: 'switch_port_mac_phy_config', len: 5, handle(nv, data) {
      const r = new TlvReader(data);
      const autoneg = bits(r.bytes(1));
      const pmd = bits(r.bytes(2));
      const mau = r.u16();
      if (mau >= OPER_MAU_TYPES.length) throw new TlvValueError('Invalid index for mau type');
      nv.set('switch_port_autonegotiation_enabled', autoneg[6]);
      nv.set('switch_port_autonegotiation_support', autoneg[7]);
      nv.set('switch_port_physical_capabilities', autonegCapabilities(pmd));
      nv.set('switch_port_mau_type', OPER_MAU_TYPES[mau]);
    },
  }],
  [3, { name: 'switch_port_link_aggregation', len: 5, handle: linkAggregation }],
  [4, { name: 'switch_port_mtu', handle: u16('switch_port_mtu') }],
]);

function orgSpecific(nv: Nv, data: Uint8Array): void {
  const r = new TlvReader(data);
  const oui = hexText(r.bytes(3));
  const subtype = r.u8();
  const table = oui === OUI_802_1 ? DOT1 : oui === OUI_802_3 ? DOT3 : null;
  if (!table) {
    log.warning(`Organizationally Unique ID ${oui} not recognized for node ${nv.nodeUuid}`);
    return;
  }
  // As Ironic's sub-parser (`nv or {}`): while nothing is parsed yet, its values go to a fresh
  // dictionary and are lost, so an 802.1/802.3 TLV only counts after a basic one.
  const target = nv.dict.size ? nv : new Nv(new Map(), nv.nodeUuid);
  const handled = parseWith(table, target, subtype, data.subarray(4));
  log.debug(handled ? `Handled ${oui === OUI_802_1 ? '802.1' : '802.3'} subtype ${subtype}`
    : `Subtype ${subtype} not found for ${oui === OUI_802_1 ? '802.1' : '802.3'}`);
}

const BASIC: ReadonlyMap<number, Entry> = new Map<number, Entry>([
  [TLV.CHASSIS_ID, { name: 'switch_chassis_id', handle: nestedId('chassis', 'switch_chassis_id') }],
  [TLV.PORT_ID, { name: 'switch_port_id', handle: nestedId('port', 'switch_port_id') }],
  [TLV.TTL, { name: 'None', handle: null }],
  [TLV.PORT_DESCRIPTION, { name: 'switch_port_description', handle: text('switch_port_description') }],
  [TLV.SYS_NAME, { name: 'switch_system_name', handle: text('switch_system_name') }],
  [TLV.SYS_DESCRIPTION, { name: 'switch_system_description', handle: text('switch_system_description') }],
  [TLV.SYS_CAPABILITIES, {
    name: 'switch_capabilities', len: 4, handle(nv, data) {
      const flags = bits(data);
      nv.set('switch_capabilities_support', capabilities(flags.slice(0, 16)));
      nv.set('switch_capabilities_enabled', capabilities(flags.slice(16)));
    },
  }],
  [TLV.MGMT_ADDRESS, {
    name: 'switch_mgmt_addresses', handle(nv, data) {
      const r = new TlvReader(data);
      r.u8();
      const address = ianaAddress(r.u8(), r);
      if (address) nv.append('switch_mgmt_addresses', address);
    },
  }],
  [TLV.ORG_SPECIFIC, { name: 'None', handle: orgSpecific }],
  [TLV.END, { name: 'None', handle: null }],
]);

/** LLDPParser.parse_tlv: true when the TLV is known and valid. Decode errors propagate. */
function parseWith(table: ReadonlyMap<number, Entry>, nv: Nv, type: number, data: Uint8Array): boolean {
  const entry = table.get(type);
  if (!entry) return false;
  if (!entry.handle) return true;
  if (entry.len !== undefined && entry.len !== data.length) {
    log.warning(`Invalid data for ${entry.name} expected len ${entry.len}, got ${data.length}. Node: ${nv.nodeUuid}`);
    return false;
  }
  try {
    entry.handle(nv, data);
  } catch (err) {
    if (err instanceof TlvParseError) {
      log.warning(`TLV parse error: ${err.message}. Node: ${nv.nodeUuid}`);
      return false;
    }
    // A value error, and an undecodable 802.1/802.3 string (a UnicodeDecodeError is a ValueError).
    const nested = table !== BASIC && err instanceof TlvDecodeError;
    if (!(err instanceof TlvValueError) && !nested) throw err;
    log.warning(`TLV value error: ${err.message}. Node: ${nv.nodeUuid}`);
    return false;
  }
  return true;
}

/** LLDPBasicMgmtParser: TLVs are fed one by one into one name/value dictionary. */
export class LldpParser {
  private readonly nv: Nv;

  constructor(nodeUuid: string) {
    this.nv = new Nv(new Map(), nodeUuid);
  }

  /** True when handled; a TlvDecodeError (undecodable text) propagates to the caller. */
  parseTlv(type: number, data: Uint8Array): boolean {
    return parseWith(BASIC, this.nv, type, data);
  }

  get values(): NvDict {
    return this.nv.dict;
  }
}
