/**
 * The LLDP TLV structures (inspector/lldp_tlvs.py): how the bytes of each TLV Ironic understands
 * are laid out, decoded as its `construct` definitions do. Too few bytes is a TlvParseError (a
 * ConstructError: the TLV is skipped); text that is not UTF-8 is a TlvDecodeError (skipped too).
 */

export class TlvParseError extends Error {}
export class TlvDecodeError extends Error {}

export const TLV = {
  END: 0, CHASSIS_ID: 1, PORT_ID: 2, TTL: 3, PORT_DESCRIPTION: 4, SYS_NAME: 5, SYS_DESCRIPTION: 6,
  SYS_CAPABILITIES: 7, MGMT_ADDRESS: 8, ORG_SPECIFIC: 127,
} as const;

export const OUI_802_1 = '0080c2';
export const OUI_802_3 = '00120f';

/** A cursor over one TLV's bytes. */
export class TlvReader {
  private pos = 0;
  constructor(private readonly data: Uint8Array) {}

  bytes(n: number): Uint8Array {
    if (this.pos + n > this.data.length) {
      throw new TlvParseError(`stream read less than specified amount, expected ${n}, found ${this.data.length - this.pos}`);
    }
    const out = this.data.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  u8(): number { return this.bytes(1)[0]; }
  u16(): number { const b = this.bytes(2); return (b[0] << 8) | b[1]; }
  u32(): number { const b = this.bytes(4); return ((b[0] << 24) >>> 0) + ((b[1] << 16) | (b[2] << 8) | b[3]); }
  rest(): Uint8Array { return this.bytes(this.data.length - this.pos); }
}

/** Strict UTF-8 as Python decodes it (a leading BOM kept). */
export function utf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new TlvDecodeError("'utf-8' codec can't decode bytes: invalid data");
  }
}

function hex2(b: number): string {
  return b.toString(16).padStart(2, '0');
}

/** netaddr's mac_unix_expanded form. */
function mac(r: TlvReader): string {
  return [...r.bytes(6)].map(hex2).join(':');
}

function ipv6(bytes: Uint8Array): string {
  // netaddr guesses the version from the integer: one below 2**32 prints as IPv4.
  if (bytes.subarray(0, 12).every((b) => b === 0)) return [...bytes.subarray(12)].join('.');
  const words = Array.from({ length: 8 }, (_, i) => ((bytes[i * 2] << 8) | bytes[i * 2 + 1]).toString(16));
  // The URL parser prints an IPv6 address compressed, as netaddr does.
  return new URL(`http://[${words.join(':')}]/`).hostname.slice(1, -1);
}

/** An IANA address of a known family, or null (construct's Switch without a default: Pass). */
export function ianaAddress(family: number, r: TlvReader): string | null {
  if (family === 1) return [...r.bytes(4)].join('.');
  if (family === 2) return ipv6(r.bytes(16));
  if (family === 6) return mac(r);
  return null;
}

const CHASSIS_TEXT = [1, 2, 3, 6, 7];
const PORT_TEXT = [1, 2, 5, 7];

/**
 * The value of a Chassis ID or Port ID TLV; `undefined` for a subtype the structure does not know
 * (its value is None, and Ironic then fails on `None.value`).
 */
export function idValue(kind: 'chassis' | 'port', data: Uint8Array): string | null | undefined {
  const r = new TlvReader(data);
  const subtype = r.u8();
  if ((kind === 'chassis' ? CHASSIS_TEXT : PORT_TEXT).includes(subtype)) return utf8(r.rest());
  if (subtype === (kind === 'chassis' ? 4 : 3)) return mac(r);
  if (subtype === (kind === 'chassis' ? 5 : 4)) return ianaAddress(r.u8(), r);
  return undefined;
}

/** The bits of a byte string, most significant first (construct's BitStruct). */
export function bits(bytes: Uint8Array): boolean[] {
  return [...bytes].flatMap((b) => Array.from({ length: 8 }, (_, i) => ((b >> (7 - i)) & 1) === 1));
}

export function hexText(bytes: Uint8Array): string {
  return [...bytes].map(hex2).join('');
}

/** Operational MAU types (OPER_MAU_TYPES), by index. */
export const OPER_MAU_TYPES: readonly string[] = [
  'Unknown', 'AUI', '10BASE-5', 'FOIRL', '10BASE-2', '10BASE-T duplex mode unknown', '10BASE-FP', '10BASE-FB',
  '10BASE-FL duplex mode unknown', '10BROAD36', '10BASE-T half duplex', '10BASE-T full duplex',
  '10BASE-FL half duplex', '10BASE-FL full duplex', '100 BASE-T4', '100BASE-TX half duplex',
  '100BASE-TX full duplex', '100BASE-FX half duplex', '100BASE-FX full duplex', '100BASE-T2 half duplex',
  '100BASE-T2 full duplex', '1000BASE-X half duplex', '1000BASE-X full duplex', '1000BASE-LX half duplex',
  '1000BASE-LX full duplex', '1000BASE-SX half duplex', '1000BASE-SX full duplex', '1000BASE-CX half duplex',
  '1000BASE-CX full duplex', '1000BASE-T half duplex', '1000BASE-T full duplex', '10GBASE-X', '10GBASE-LX4',
  '10GBASE-R', '10GBASE-ER', '10GBASE-LR', '10GBASE-SR', '10GBASE-W', '10GBASE-EW', '10GBASE-LW', '10GBASE-SW',
  '10GBASE-CX4', '2BASE-TL', '10PASS-TS', '100BASE-BX10D', '100BASE-BX10U', '100BASE-LX10', '1000BASE-BX10D',
  '1000BASE-BX10U', '1000BASE-LX10', '1000BASE-PX10D', '1000BASE-PX10U', '1000BASE-PX20D', '1000BASE-PX20U',
];

/**
 * The PMD auto-negotiation capabilities (get_autoneg_cap), sorted, from the 16 bits after a
 * padding bit. As in Ironic, "10BASE-T fdx" follows the 10BASE-T hdx bit.
 */
export function autonegCapabilities(pmd: boolean[]): string[] {
  const names: Array<[number, string]> = [
    [1, '10BASE-T hdx'], [1, '10BASE-T fdx'], [3, '10BASE-T4'], [4, '100BASE-TX hdx'], [5, '100BASE-TX fdx'],
    [6, '100BASE-T2 hdx'], [7, '100BASE-T2 fdx'], [8, 'PAUSE fdx'], [9, 'Asym PAUSE fdx'], [10, 'Sym PAUSE fdx'],
    [11, 'Asym and Sym PAUSE fdx'], [12, '1000BASE-X hdx'], [13, '1000BASE-X fdx'], [14, '1000BASE-T hdx'],
    [15, '1000BASE-T fdx'],
  ];
  return [...new Set(names.filter(([bit]) => pmd[bit]).map(([, name]) => name))].sort();
}
