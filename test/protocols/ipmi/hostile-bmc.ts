/**
 * A hostile BMC for fuzzing: a real simulator whose every response may be truncated, re-addressed
 * to another session, corrupted (bad HMAC / bad ciphertext), replayed (stale sequence number),
 * replaced by random bytes, duplicated, delayed past the client's timeout, or dropped.
 * All randomness comes from a seeded generator so a failure can be replayed.
 */
import dgram from 'node:dgram';
import { SimBmc } from '../../../src/protocols/ipmi/sim';
import { seededRandom } from '../seeded-random';

export const MUTATIONS = ['pass', 'truncate', 'wrong-session', 'flip-byte', 'flip-last', 'replay', 'random', 'random-rmcp', 'duplicate', 'delay', 'drop'] as const;
export type Mutation = (typeof MUTATIONS)[number];

export interface HostileOptions {
  seed: number;
  /** Probability that a response is mutated rather than passed through. */
  rate: number;
  /** Delay used by the 'delay' mutation (longer than the client timeout). */
  delayMs: number;
}

export class HostileBmc {
  readonly counts = new Map<Mutation, number>();
  private readonly rand: () => number;
  private previous: Buffer | undefined;
  readonly sim: SimBmc;

  constructor(private readonly options: HostileOptions) {
    this.rand = seededRandom(options.seed);
    this.sim = new SimBmc({ outbound: (rsp) => this.mutate(rsp) });
  }

  start(): Promise<number> {
    return this.sim.start();
  }

  stop(): Promise<void> {
    return this.sim.stop();
  }

  private int(max: number): number {
    return Math.floor(this.rand() * max);
  }

  private randomBytes(n: number): Buffer {
    const out = Buffer.alloc(n);
    for (let i = 0; i < n; i++) out[i] = this.int(256);
    return out;
  }

  private pick(): Mutation {
    if (this.rand() >= this.options.rate) return 'pass';
    return MUTATIONS[1 + this.int(MUTATIONS.length - 1)];
  }

  private mutate(rsp: Buffer): Array<{ data: Buffer; delayMs?: number }> {
    const mutation = this.pick();
    this.counts.set(mutation, (this.counts.get(mutation) ?? 0) + 1);
    const previous = this.previous;
    this.previous = rsp;
    const copy = Buffer.from(rsp);
    switch (mutation) {
      case 'pass':
        return [{ data: rsp }];
      case 'truncate':
        return [{ data: rsp.subarray(0, this.int(rsp.length)) }];
      case 'wrong-session':
        if (copy.length > 10) copy.writeUInt32LE(this.int(0xffffffff), 6);
        return [{ data: copy }];
      case 'flip-byte':
        copy[this.int(copy.length)] ^= 1 + this.int(255);
        return [{ data: copy }];
      case 'flip-last':
        copy[copy.length - 1] ^= 0x5a;
        return [{ data: copy }];
      case 'replay':
        return [{ data: previous ?? rsp }];
      case 'random':
        return [{ data: this.randomBytes(this.int(120)) }];
      case 'random-rmcp':
        return [{ data: Buffer.concat([Buffer.from([0x06, 0x00, 0xff, 0x07, this.rand() < 0.5 ? 0x06 : 0x00]), this.randomBytes(this.int(80))]) }];
      case 'duplicate':
        return [{ data: rsp }, { data: rsp }];
      case 'delay':
        return [{ data: rsp, delayMs: this.options.delayMs }];
      case 'drop':
        return [];
    }
  }
}

/** Answers every datagram with garbage derived from it: for the IPMI 1.5 code path. */
export async function startGarbageResponder(seed: number): Promise<{ port: number; stop: () => Promise<void> }> {
  const rand = seededRandom(seed);
  const socket = dgram.createSocket('udp4');
  socket.on('message', (msg, rinfo) => {
    const copy = Buffer.from(msg);
    const roll = rand();
    let out: Buffer;
    if (roll < 0.3) out = copy.subarray(0, Math.floor(rand() * copy.length));
    else if (roll < 0.6) {
      for (let i = 4; i < copy.length; i++) if (rand() < 0.2) copy[i] = Math.floor(rand() * 256);
      out = copy;
    } else if (roll < 0.8) out = Buffer.from(Array.from({ length: Math.floor(rand() * 60) }, () => Math.floor(rand() * 256)));
    else return;
    socket.send(out, rinfo.port, rinfo.address);
  });
  await new Promise<void>((res) => socket.bind(0, '127.0.0.1', () => res()));
  return { port: socket.address().port, stop: () => new Promise((res) => socket.close(() => res())) };
}
