/**
 * The few netaddr answers network_data.json needs: a CIDR's network address and netmask, written
 * as netaddr's str() writes them (dotted quad for IPv4, RFC 5952 compressed text for IPv6).
 */
import { isIPv4, isIPv6 } from 'node:net';

class InvalidCidrError extends Error {
  override readonly name = 'InvalidCidrError';
}

interface ParsedCidr {
  version: 4 | 6;
  /** The address bits, 32 or 128 of them. */
  bits: bigint;
  prefix: number;
}

export function ipVersion(address: string): 4 | 6 {
  return address.includes(':') ? 6 : 4;
}

export function parseCidr(cidr: string): ParsedCidr {
  const [addr, prefixText] = cidr.split('/');
  const version = ipVersion(addr);
  const width = version === 4 ? 32 : 128;
  if (!(version === 4 ? isIPv4(addr) : isIPv6(addr))) throw new InvalidCidrError(`invalid address in ${cidr}`);
  const prefix = prefixText === undefined ? width : Number(prefixText);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > width) throw new InvalidCidrError(`invalid prefix in ${cidr}`);
  return { version, bits: version === 4 ? v4Bits(addr) : v6Bits(addr), prefix };
}

function v4Bits(addr: string): bigint {
  return addr.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function v6Bits(addr: string): bigint {
  let text = addr;
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const b = v4Bits(tail[1]);
    text = text.slice(0, -tail[1].length) + `${(b >> 16n).toString(16)}:${(b & 0xffffn).toString(16)}`;
  }
  const [head, rest] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = rest === undefined ? [] : rest ? rest.split(':') : [];
  const groups = rest === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

function maskBits(version: 4 | 6, prefix: number): bigint {
  const width = BigInt(version === 4 ? 32 : 128);
  const all = (1n << width) - 1n;
  return all ^ ((1n << (width - BigInt(prefix))) - 1n);
}

function formatAddress(version: 4 | 6, bits: bigint): string {
  if (version === 4) return [24n, 16n, 8n, 0n].map((s) => String((bits >> s) & 0xffn)).join('.');
  const groups = Array.from({ length: 8 }, (_, i) => Number((bits >> BigInt((7 - i) * 16)) & 0xffffn));
  return compressV6(groups);
}

/** The longest run of two or more zero groups becomes `::` (the first such run on a tie). */
function compressV6(groups: number[]): string {
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`;
}

export function netmaskOf(cidr: string): string {
  const c = parseCidr(cidr);
  return formatAddress(c.version, maskBits(c.version, c.prefix));
}

export function networkAddressOf(cidr: string): string {
  const c = parseCidr(cidr);
  return formatAddress(c.version, c.bits & maskBits(c.version, c.prefix));
}
