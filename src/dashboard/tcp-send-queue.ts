/**
 * How many bytes each TCP connection of this host has sent that its peer has not acknowledged:
 * the tx_queue column of Linux's /proc/net/tcp and /proc/net/tcp6. A stream client that stops
 * reading lets the kernel take up to [tcp_wmem] (4 MiB here) before Node's own buffer grows at
 * all; its unacknowledged bytes show the stall long before that. Elsewhere (no /proc) the map is
 * null and only Node's buffer counts.
 */
import { promises as fsp } from 'node:fs';
import { isIPv4 } from 'node:net';

/** `<remote address as 32 hex digits>:<remote port>:<local port>` of a connection. */
export function connectionKey(remoteAddress: string, remotePort: number, localPort: number): string {
  return `${addressHex(remoteAddress)}:${remotePort}:${localPort}`;
}

/** An address as its 16 bytes in hex, IPv4 as IPv4-mapped IPv6 (::ffff:a.b.c.d). */
function addressHex(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const v4 = mapped ? mapped[1] : isIPv4(address) ? address : null;
  if (v4 !== null) return `00000000000000000000ffff${v4.split('.').map((o) => Number(o).toString(16).padStart(2, '0')).join('')}`;
  const [head, tail = null] = address.toLowerCase().replace(/%.*$/, '').split('::');
  const groups = (part: string | null): string[] => (part ? part.split(':') : []);
  const fill = tail === null ? [] : Array<string>(8 - groups(head).length - groups(tail).length).fill('0');
  return [...groups(head), ...fill, ...groups(tail)].map((g) => g.padStart(4, '0')).join('');
}

/** /proc's address: 32-bit words in host (little-endian) order. */
function procAddressHex(hex: string): string {
  const words = hex.match(/.{8}/g) ?? [];
  const bytes = words.map((w) => w.match(/../g)!.reverse().join('')).join('').toLowerCase();
  return words.length === 1 ? `00000000000000000000ffff${bytes}` : bytes;
}

async function readTable(file: string, into: Map<string, number>): Promise<boolean> {
  let text: string;
  try {
    text = await fsp.readFile(file, 'utf8');
  } catch {
    return false;
  }
  for (const line of text.split('\n').slice(1)) {
    const cols = line.trim().split(/\s+/);
    if (cols.length < 5 || cols[3] !== '01') continue; // ESTABLISHED only
    const [localAddr, localPort] = cols[1].split(':');
    const [remoteAddr, remotePort] = cols[2].split(':');
    if (!localAddr || !remoteAddr) continue;
    const txQueue = parseInt(cols[4].split(':')[0], 16);
    into.set(`${procAddressHex(remoteAddr)}:${parseInt(remotePort, 16)}:${parseInt(localPort, 16)}`, txQueue);
  }
  return true;
}

/** Unacknowledged bytes per connection key, or null where /proc/net/tcp is not there. */
export async function unacknowledgedBytes(): Promise<Map<string, number> | null> {
  const queues = new Map<string, number>();
  const v4 = await readTable('/proc/net/tcp', queues);
  const v6 = await readTable('/proc/net/tcp6', queues);
  return v4 || v6 ? queues : null;
}
