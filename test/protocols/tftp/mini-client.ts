/**
 * A deliberately small TFTP client for tests that real clients cannot
 * express (windowsize, WRQ, raw names, dropped or per-block ACKs).
 */
import * as dgram from 'node:dgram';
import { Opcode, decodePacket, encodeAck, encodeRequest } from '../../../src/protocols/tftp/packets';

export interface GetResult {
  data: Buffer;
  oack?: Map<string, string>;
  error?: { code: number; message: string };
  /** DATA packets received, duplicates (and dropped ones) included. */
  packets: number;
  /** Distinct server ports (TIDs) that sent packets. */
  tids: number[];
}

export interface GetOptions {
  options?: Map<string, string>;
  mode?: string;
  op?: 1 | 2;
  /** Local address to send from (any 127.x.y.z works on Linux loopback). */
  bindAddress?: string;
  /** Do not ACK the first DATA packet, forcing a server retransmission. */
  ignoreFirstData?: boolean;
  /** Stop after the first packet without answering (keeps the transfer open). */
  stall?: boolean;
  /** Send the request twice, as a client whose first RRQ seemed lost would. */
  repeatRequest?: boolean;
  /** ACK every block instead of the last of each window. */
  ackEvery?: boolean;
  /** Simulated loss: drop the n-th DATA packet received (1-based) when true. */
  dropData?: (n: number) => boolean;
  /** Simulated loss: drop the n-th ACK sent for DATA (1-based) when true. */
  dropAck?: (n: number) => boolean;
}

export function tftpGet(port: number, filename: string, o: GetOptions = {}): Promise<GetResult> {
  const sock = dgram.createSocket('udp4');
  const chunks: Buffer[] = [];
  let expected = 1;
  let packets = 0;
  let acks = 0;
  let ignored = false;
  const windowsize = Number(o.options?.get('windowsize') ?? '1');
  let blksize = 512;
  let oack: Map<string, string> | undefined;
  const tids = new Set<number>();
  return new Promise((resolve, reject) => {
    const finish = (r: Omit<GetResult, 'packets' | 'data' | 'tids'> & { data?: Buffer }) => {
      clearTimeout(guard);
      sock.close();
      resolve({ data: r.data ?? Buffer.concat(chunks), packets, tids: [...tids], ...(r.oack ? { oack: r.oack } : {}), ...(r.error ? { error: r.error } : {}) });
    };
    const guard = setTimeout(() => {
      sock.close();
      reject(new Error('mini-client timeout'));
    }, 20000);
    /** ACKs a block; `then` runs once the datagram has left (closing earlier could lose it). */
    const ack = (block: number, rinfo: dgram.RemoteInfo, then?: () => void) => {
      if (o.dropAck?.(++acks)) return then?.();
      sock.send(encodeAck(block & 0xffff), rinfo.port, rinfo.address, () => then?.());
    };
    sock.on('message', (msg, rinfo) => {
      const p = decodePacket(msg);
      tids.add(rinfo.port);
      if (o.stall) return finish({});
      if (p.op === Opcode.ERROR) return finish({ error: { code: p.code, message: p.message }, ...(oack ? { oack } : {}) });
      if (p.op === Opcode.OACK) {
        oack = p.options;
        blksize = Number(p.options.get('blksize') ?? '512');
        sock.send(encodeAck(0), rinfo.port, rinfo.address);
        return;
      }
      if (p.op !== Opcode.DATA) return;
      packets++;
      if ((o.ignoreFirstData && !ignored) || o.dropData?.(packets)) {
        ignored = true;
        return;
      }
      if (p.block !== (expected & 0xffff)) {
        // RFC 7440 section 4: on a sequence error (or a duplicate) ACK the last block received in order.
        if (expected > 1) ack(expected - 1, rinfo);
        return;
      }
      chunks.push(p.data);
      const last = p.data.length < blksize;
      if (last) return ack(expected, rinfo, () => finish({ ...(oack ? { oack } : {}) }));
      if (o.ackEvery || expected % windowsize === 0) ack(expected, rinfo);
      expected++;
    });
    sock.bind(0, o.bindAddress ?? '127.0.0.1', () => {
      const rrq = encodeRequest(o.op ?? 1, filename, o.mode ?? 'octet', o.options);
      sock.send(rrq, port, '127.0.0.1');
      if (o.repeatRequest) sock.send(rrq, port, '127.0.0.1');
    });
  });
}

export interface HeldRequest {
  /** Packets the server sent to this client, in order. */
  received: Array<ReturnType<typeof decodePacket>>;
  close(): void;
}

/**
 * Sends one RRQ and never answers, as a client that opens transfers only to
 * hold them (or whose source address is spoofed) would; records what comes back.
 */
export function holdRequest(port: number, filename: string, options: Map<string, string>, bindAddress = '127.0.0.1'): Promise<HeldRequest> {
  const sock = dgram.createSocket('udp4');
  const received: HeldRequest['received'] = [];
  sock.on('message', (msg) => received.push(decodePacket(msg)));
  return new Promise((resolve) => {
    sock.bind(0, bindAddress, () => {
      sock.send(encodeRequest(1, filename, 'octet', options), port, '127.0.0.1');
      resolve({ received, close: () => sock.close() });
    });
  });
}
