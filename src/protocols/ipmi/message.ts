/**
 * The IPMI LAN message that rides inside a session (IPMI 2.0 section 13.8): two checksummed
 * halves addressed like an IPMB frame.
 */
import { IpmiProtocolError } from './errors';

export const BMC_SLAVE_ADDR = 0x20;
const REMOTE_SWID = 0x81;

export interface IpmiRequest {
  netFn: number;
  cmd: number;
  data: Buffer;
  rsAddr?: number;
  rsLun?: number;
}

export interface IpmiResponse {
  netFn: number;
  cmd: number;
  rqSeq: number;
  completionCode: number;
  data: Buffer;
  rqAddr: number;
  rsAddr: number;
}

function checksum(bytes: Buffer, start: number, end: number): number {
  let sum = 0;
  for (let i = start; i < end; i++) sum = (sum + bytes[i]) & 0xff;
  return (0x100 - sum) & 0xff;
}

export function encodeRequest(req: IpmiRequest, rqSeq: number, rqAddr = REMOTE_SWID): Buffer {
  const out = Buffer.alloc(7 + req.data.length);
  out[0] = req.rsAddr ?? BMC_SLAVE_ADDR;
  out[1] = ((req.netFn & 0x3f) << 2) | ((req.rsLun ?? 0) & 0x03);
  out[2] = checksum(out, 0, 2);
  out[3] = rqAddr;
  out[4] = (rqSeq & 0x3f) << 2;
  out[5] = req.cmd;
  req.data.copy(out, 6);
  out[out.length - 1] = checksum(out, 3, out.length - 1);
  return out;
}

/** Decodes a response frame; checksums are verified because a corrupt frame must not be trusted. */
export function decodeResponse(frame: Buffer): IpmiResponse {
  if (frame.length < 8) throw new IpmiProtocolError(`IPMI response too short (${frame.length} bytes)`);
  if (checksum(frame, 0, 2) !== frame[2]) throw new IpmiProtocolError('IPMI response header checksum mismatch');
  if (checksum(frame, 3, frame.length - 1) !== frame[frame.length - 1]) {
    throw new IpmiProtocolError('IPMI response data checksum mismatch');
  }
  const netFn = frame[1] >> 2;
  if ((netFn & 1) !== 1) throw new IpmiProtocolError(`IPMI frame has request netFn 0x${netFn.toString(16)}`);
  return {
    rqAddr: frame[0],
    netFn,
    rsAddr: frame[3],
    rqSeq: frame[4] >> 2,
    cmd: frame[5],
    completionCode: frame[6],
    data: Buffer.from(frame.subarray(7, frame.length - 1)),
  };
}

/** Server side (simulator): parse a request frame. */
export interface DecodedRequest {
  rsAddr: number;
  netFn: number;
  rsLun: number;
  rqAddr: number;
  rqSeq: number;
  rqLun: number;
  cmd: number;
  data: Buffer;
}

export function decodeRequest(frame: Buffer): DecodedRequest {
  if (frame.length < 7) throw new IpmiProtocolError('IPMI request too short');
  if (checksum(frame, 0, 2) !== frame[2] || checksum(frame, 3, frame.length - 1) !== frame[frame.length - 1]) {
    throw new IpmiProtocolError('IPMI request checksum mismatch');
  }
  return {
    rsAddr: frame[0],
    netFn: frame[1] >> 2,
    rsLun: frame[1] & 3,
    rqAddr: frame[3],
    rqSeq: frame[4] >> 2,
    rqLun: frame[4] & 3,
    cmd: frame[5],
    data: Buffer.from(frame.subarray(6, frame.length - 1)),
  };
}

export function encodeResponse(req: DecodedRequest, completionCode: number, data: Buffer): Buffer {
  const out = Buffer.alloc(8 + data.length);
  out[0] = req.rqAddr;
  out[1] = ((req.netFn | 1) << 2) | req.rqLun;
  out[2] = checksum(out, 0, 2);
  out[3] = req.rsAddr;
  out[4] = (req.rqSeq << 2) | req.rsLun;
  out[5] = req.cmd;
  out[6] = completionCode;
  data.copy(out, 7);
  out[out.length - 1] = checksum(out, 3, out.length - 1);
  return out;
}

/**
 * How one logical request travels: its wire form for a given rqSeq, which responses answer it,
 * and how to get the caller's response out of them (bridging wraps all three).
 */
export interface RequestPlan {
  wire(rqSeq: number): IpmiRequest;
  /** true when rsp is the (final or carrying) answer; false to keep waiting. */
  answers(rsp: IpmiResponse, rqSeq: number): boolean;
  unwrap(rsp: IpmiResponse): IpmiResponse;
}

export function plainPlan(req: IpmiRequest): RequestPlan {
  return {
    wire: () => req,
    answers: (rsp, rqSeq) => rsp.rqSeq === rqSeq && rsp.cmd === req.cmd && rsp.netFn === (req.netFn | 1),
    unwrap: (rsp) => rsp,
  };
}
