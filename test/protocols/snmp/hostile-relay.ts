/**
 * A hostile PDU for fuzzing: a UDP relay in front of a real snmpd whose every answer may be
 * truncated, bit-flipped (a bad HMAC or ciphertext under SNMPv3), re-addressed to another request
 * id, replaced by garbage, padded to a huge datagram, duplicated, delayed past the client's timeout
 * or dropped. Requests reach the agent untouched, so "pass" answers are genuine.
 */
import * as dgram from 'node:dgram';
import { seededRandom } from '../seeded-random';

export const MUTATIONS = ['pass', 'truncate', 'flip-byte', 'flip-last', 'request-id', 'garbage', 'huge', 'empty',
  'duplicate', 'delay', 'drop'] as const;
export type Mutation = (typeof MUTATIONS)[number];

/** BER tag-length header at `at`: where the content starts and how long it is. */
function berHeader(buf: Buffer, at: number): { start: number; length: number } | undefined {
  if (at + 2 > buf.length) return undefined;
  const first = buf[at + 1];
  if (first < 0x80) return { start: at + 2, length: first };
  const n = first & 0x7f;
  if (n === 0 || n > 3 || at + 2 + n > buf.length) return undefined;
  let length = 0;
  for (let i = 0; i < n; i += 1) length = length * 256 + buf[at + 2 + i];
  return { start: at + 2 + n, length };
}

/** Offset of the last byte of a v1/v2c response's request-id INTEGER (SEQUENCE, version, community, PDU, id). */
function requestIdEnd(buf: Buffer): number | undefined {
  const message = berHeader(buf, 0);
  if (!message) return undefined;
  let at = message.start;
  for (let i = 0; i < 2; i += 1) {
    const field = berHeader(buf, at);
    if (!field) return undefined;
    at = field.start + field.length;
  }
  if (buf[at] !== 0xa2) return undefined; // not a plaintext GetResponse (SNMPv3 is encrypted)
  const pdu = berHeader(buf, at);
  const id = pdu && berHeader(buf, pdu.start);
  return id && id.length > 0 ? id.start + id.length - 1 : undefined;
}

export interface HostileRelayOptions {
  seed: number;
  /** Share of answers that are mutated. */
  rate: number;
  /** How long a "delay" holds an answer (past the client's per-attempt timeout). */
  delayMs: number;
  /** Mutations to choose from (default: all but pass). */
  only?: readonly Mutation[];
}

export class HostileRelay {
  private readonly rand: () => number;
  private front?: dgram.Socket;
  private readonly upstreams = new Map<string, dgram.Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();
  readonly seen = new Map<Mutation, number>();
  port = 0;

  constructor(private readonly agentPort: number, private readonly opts: HostileRelayOptions) {
    this.rand = seededRandom(opts.seed);
  }

  async start(): Promise<number> {
    const front = dgram.createSocket('udp4');
    this.front = front;
    front.on('message', (msg, rinfo) => this.forward(msg, rinfo));
    await new Promise<void>((resolve) => front.bind(0, '127.0.0.1', () => resolve()));
    this.port = front.address().port;
    return this.port;
  }

  /** One upstream socket per client address, so the agent's answer finds its way back. */
  private forward(msg: Buffer, client: dgram.RemoteInfo): void {
    const key = `${client.address}:${client.port}`;
    let upstream = this.upstreams.get(key);
    if (!upstream) {
      upstream = dgram.createSocket('udp4');
      upstream.on('message', (answer) => this.answer(answer, client));
      upstream.on('error', () => undefined);
      this.upstreams.set(key, upstream);
    }
    upstream.send(msg, this.agentPort, '127.0.0.1');
  }

  private pick(): Mutation {
    if (this.rand() >= this.opts.rate) return 'pass';
    const choices = this.opts.only ?? MUTATIONS.slice(1);
    return choices[Math.floor(this.rand() * choices.length)];
  }

  private send(buf: Buffer, client: dgram.RemoteInfo): void {
    this.front?.send(buf, client.port, client.address);
  }

  private later(ms: number, fn: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, ms);
    this.timers.add(timer);
  }

  private answer(answer: Buffer, client: dgram.RemoteInfo): void {
    const mutation = this.pick();
    this.seen.set(mutation, (this.seen.get(mutation) ?? 0) + 1);
    const copy = Buffer.from(answer);
    const at = (n: number): number => Math.floor(this.rand() * n);
    switch (mutation) {
      case 'pass': return this.send(copy, client);
      case 'truncate': return this.send(copy.subarray(0, at(copy.length)), client);
      case 'flip-byte': copy[at(copy.length)] ^= 1 << at(8); return this.send(copy, client);
      case 'flip-last': copy[copy.length - 1] ^= 0xff; return this.send(copy, client);
      case 'request-id': {
        const end = requestIdEnd(copy);
        if (end !== undefined) copy[end] ^= 0x01;
        else copy[at(copy.length)] ^= 0x80;
        return this.send(copy, client);
      }
      case 'garbage': return this.send(Buffer.from(Array.from({ length: 1 + at(200) }, () => at(256))), client);
      case 'huge': return this.send(Buffer.concat([copy, Buffer.alloc(60000, 0x30)]), client);
      case 'empty': return this.send(Buffer.alloc(0), client);
      case 'duplicate':
        this.send(copy, client);
        return this.send(copy, client);
      case 'delay': return this.later(this.opts.delayMs, () => this.send(copy, client));
      case 'drop': return undefined;
    }
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    const sockets = [...this.upstreams.values(), ...(this.front ? [this.front] : [])];
    this.upstreams.clear();
    this.front = undefined;
    await Promise.all(sockets.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  }
}
