/**
 * TFTP wire format (RFC 1350) plus the OACK packet of the option
 * extension (RFC 2347). Pure encode/decode, no I/O.
 */

export const Opcode = {
  RRQ: 1,
  WRQ: 2,
  DATA: 3,
  ACK: 4,
  ERROR: 5,
  OACK: 6,
} as const;

/** Error codes of RFC 1350 section 5 and RFC 2347 (code 8). */
export const TftpErrorCode = {
  NOT_DEFINED: 0,
  FILE_NOT_FOUND: 1,
  ACCESS_VIOLATION: 2,
  DISK_FULL: 3,
  ILLEGAL_OPERATION: 4,
  UNKNOWN_TID: 5,
  FILE_EXISTS: 6,
  NO_SUCH_USER: 7,
  OPTION_NEGOTIATION: 8,
} as const;

export interface RequestPacket {
  op: typeof Opcode.RRQ | typeof Opcode.WRQ;
  filename: string;
  mode: string;
  /** Option names lower-cased; values as sent. */
  options: Map<string, string>;
}
interface DataPacket { op: typeof Opcode.DATA; block: number; data: Buffer }
interface AckPacket { op: typeof Opcode.ACK; block: number }
interface ErrorPacket { op: typeof Opcode.ERROR; code: number; message: string }
interface OackPacket { op: typeof Opcode.OACK; options: Map<string, string> }

export type Packet = RequestPacket | DataPacket | AckPacket | ErrorPacket | OackPacket;

class TftpPacketError extends Error {
  override readonly name = 'TftpPacketError';
}

/** Splits a run of NUL-terminated strings; a missing final NUL is malformed. */
function readStrings(buf: Buffer, start: number): string[] {
  const out: string[] = [];
  let pos = start;
  while (pos < buf.length) {
    const end = buf.indexOf(0, pos);
    if (end < 0) throw new TftpPacketError('unterminated string in packet');
    out.push(buf.toString('latin1', pos, end));
    pos = end + 1;
  }
  return out;
}

function decodeRequest(op: 1 | 2, buf: Buffer): RequestPacket {
  const fields = readStrings(buf, 2);
  if (fields.length < 2) throw new TftpPacketError('request lacks filename or mode');
  const [filename, mode, ...rest] = fields as [string, string, ...string[]];
  const options = new Map<string, string>();
  // A trailing odd field is tolerated: some clients pad requests with NULs.
  for (let i = 0; i + 1 < rest.length; i += 2) {
    const name = rest[i]!.toLowerCase();
    if (name !== '' && !options.has(name)) options.set(name, rest[i + 1]!);
  }
  return { op, filename, mode: mode.toLowerCase(), options };
}

function decodeOptionList(buf: Buffer): Map<string, string> {
  const fields = readStrings(buf, 2);
  const options = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) options.set(fields[i]!.toLowerCase(), fields[i + 1]!);
  return options;
}

export function decodePacket(buf: Buffer): Packet {
  if (buf.length < 4) throw new TftpPacketError('packet too short');
  const op = buf.readUInt16BE(0);
  switch (op) {
    case Opcode.RRQ:
    case Opcode.WRQ:
      return decodeRequest(op, buf);
    case Opcode.DATA:
      return { op, block: buf.readUInt16BE(2), data: buf.subarray(4) };
    case Opcode.ACK:
      return { op, block: buf.readUInt16BE(2) };
    case Opcode.ERROR: {
      const end = buf.indexOf(0, 4);
      return { op, code: buf.readUInt16BE(2), message: buf.toString('latin1', 4, end < 0 ? buf.length : end) };
    }
    case Opcode.OACK:
      return { op, options: decodeOptionList(buf) };
    default:
      throw new TftpPacketError(`unknown opcode ${op}`);
  }
}

function header(op: number, word: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt16BE(op, 0);
  b.writeUInt16BE(word & 0xffff, 2);
  return b;
}

function nulStrings(parts: string[]): Buffer {
  return Buffer.concat(parts.map((p) => Buffer.from(p + '\0', 'latin1')));
}

export function encodeData(block: number, data: Buffer): Buffer {
  return Buffer.concat([header(Opcode.DATA, block), data]);
}

export function encodeAck(block: number): Buffer {
  return header(Opcode.ACK, block);
}

export function encodeError(code: number, message: string): Buffer {
  return Buffer.concat([header(Opcode.ERROR, code), nulStrings([message])]);
}

export function encodeOack(options: Map<string, string>): Buffer {
  const op = Buffer.alloc(2);
  op.writeUInt16BE(Opcode.OACK, 0);
  const parts: string[] = [];
  for (const [k, v] of options) parts.push(k, v);
  return Buffer.concat([op, nulStrings(parts)]);
}

export function encodeRequest(op: 1 | 2, filename: string, mode: string, options?: Map<string, string>): Buffer {
  const opBuf = Buffer.alloc(2);
  opBuf.writeUInt16BE(op, 0);
  const parts = [filename, mode];
  for (const [k, v] of options ?? []) parts.push(k, v);
  return Buffer.concat([opBuf, nulStrings(parts)]);
}
