/**
 * A deliberately small TFTP client for tests that real clients cannot
 * express (windowsize, WRQ, raw names, dropped ACKs).
 */
import * as dgram from 'node:dgram';
import { Opcode, decodePacket, encodeAck, encodeRequest } from '../../../src/protocols/tftp/packets';

export interface GetResult {
  data: Buffer;
  oack?: Map<string, string>;
  error?: { code: number; message: string };
  /** DATA packets received, duplicates included. */
  packets: number;
  /** Distinct server ports (TIDs) that sent packets. */
  tids: number[];
}

export interface GetOptions {
  options?: Map<string, string>;
  mode?: string;
  op?: 1 | 2;
  /** Do not ACK the first DATA packet, forcing a server retransmission. */
  ignoreFirstData?: boolean;
  /** Stop after the first packet without answering (keeps the transfer open). */
  stall?: boolean;
  /** Send the request twice, as a client whose first RRQ seemed lost would. */
  repeatRequest?: boolean;
}

export function tftpGet(port: number, filename: string, o: GetOptions = {}): Promise<GetResult> {
  const sock = dgram.createSocket('udp4');
  const chunks: Buffer[] = [];
  let expected = 1;
  let packets = 0;
  let ignored = false;
  const windowsize = Number(o.options?.get('windowsize') ?? '1');
  let blksize = 512;
  let oack: Map<string, string> | undefined;
  const tids = new Set<number>();
  return new Promise((resolve, reject) => {
    const finish = (r: Omit<GetResult, 'packets' | 'data' | 'tids'> & { data?: Buffer }) => {
      sock.close();
      resolve({ data: r.data ?? Buffer.concat(chunks), packets, tids: [...tids], ...(r.oack ? { oack: r.oack } : {}), ...(r.error ? { error: r.error } : {}) });
    };
    const guard = setTimeout(() => {
      sock.close();
      reject(new Error('mini-client timeout'));
    }, 20000);
    sock.on('message', (msg, rinfo) => {
      const p = decodePacket(msg);
      tids.add(rinfo.port);
      if (o.stall) {
        clearTimeout(guard);
        return finish({});
      }
      if (p.op === Opcode.ERROR) {
        clearTimeout(guard);
        return finish({ error: { code: p.code, message: p.message }, ...(oack ? { oack } : {}) });
      }
      if (p.op === Opcode.OACK) {
        oack = p.options;
        blksize = Number(p.options.get('blksize') ?? '512');
        sock.send(encodeAck(0), rinfo.port, rinfo.address);
        return;
      }
      if (p.op !== Opcode.DATA) return;
      packets++;
      if (o.ignoreFirstData && !ignored) {
        ignored = true;
        return;
      }
      if (p.block !== (expected & 0xffff)) return;
      chunks.push(p.data);
      const last = p.data.length < blksize;
      if (last || expected % windowsize === 0) sock.send(encodeAck(expected), rinfo.port, rinfo.address);
      expected++;
      if (last) {
        clearTimeout(guard);
        finish({ ...(oack ? { oack } : {}) });
      }
    });
    sock.bind(0, '127.0.0.1', () => {
      const rrq = encodeRequest(o.op ?? 1, filename, o.mode ?? 'octet', o.options);
      sock.send(rrq, port, '127.0.0.1');
      if (o.repeatRequest) sock.send(rrq, port, '127.0.0.1');
    });
  });
}
