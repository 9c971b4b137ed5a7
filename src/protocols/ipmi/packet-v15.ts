/** IPMI 1.5 session wrapper (IPMI 2.0 table 13-8), also used for pre-session messages of lanplus. */
import { rmcpHeader, RMCP_CLASS_IPMI, rmcpClass } from './rmcp';
import { IpmiProtocolError } from './errors';

interface V15Packet {
  authType: number;
  seq: number;
  sessionId: number;
  authCode: Buffer;
  message: Buffer;
}

export function encodeV15(p: V15Packet): Buffer {
  const hdr = Buffer.alloc(9);
  hdr[0] = p.authType;
  hdr.writeUInt32LE(p.seq >>> 0, 1);
  hdr.writeUInt32LE(p.sessionId >>> 0, 5);
  const len = Buffer.from([p.message.length]);
  const authCode = p.authType === 0 ? Buffer.alloc(0) : p.authCode;
  return Buffer.concat([rmcpHeader(RMCP_CLASS_IPMI), hdr, authCode, len, p.message]);
}

export function decodeV15(packet: Buffer): V15Packet {
  if (rmcpClass(packet) !== RMCP_CLASS_IPMI) throw new IpmiProtocolError('not an IPMI RMCP packet');
  if (packet.length < 14) throw new IpmiProtocolError('IPMI 1.5 packet truncated');
  const authType = packet[4] & 0x0f;
  const seq = packet.readUInt32LE(5);
  const sessionId = packet.readUInt32LE(9);
  let off = 13;
  let authCode = Buffer.alloc(0);
  if (authType !== 0) {
    if (packet.length < off + 17) throw new IpmiProtocolError('IPMI 1.5 packet truncated in auth code');
    authCode = Buffer.from(packet.subarray(off, off + 16));
    off += 16;
  }
  const len = packet[off];
  off += 1;
  if (packet.length < off + len) throw new IpmiProtocolError('IPMI 1.5 message truncated');
  return { authType, seq, sessionId, authCode, message: Buffer.from(packet.subarray(off, off + len)) };
}

export function isV20Packet(packet: Buffer): boolean {
  return packet.length > 4 && (packet[4] & 0x0f) === 0x06;
}
