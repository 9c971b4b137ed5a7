/** RMCP+ session wrapper (IPMI 2.0 table 13-8, format 0x06) with integrity and confidentiality. */
import { rmcpHeader, RMCP_CLASS_IPMI, rmcpClass } from './rmcp';
import type { CipherSuite } from './cipher-suites';
import { aesDecrypt, aesEncrypt, integrityLength, integrityMac, safeEqual } from './crypto';
import { IpmiIntegrityError, IpmiProtocolError } from './errors';

export const PAYLOAD_IPMI = 0x00;
export const PAYLOAD_OPEN_SESSION_REQ = 0x10;
export const PAYLOAD_OPEN_SESSION_RSP = 0x11;
export const PAYLOAD_RAKP1 = 0x12;
export const PAYLOAD_RAKP2 = 0x13;
export const PAYLOAD_RAKP3 = 0x14;
export const PAYLOAD_RAKP4 = 0x15;

/** Keys of an established session; absent before RAKP completes. */
export interface SessionKeys {
  suite: CipherSuite;
  k1: Buffer;
  k2: Buffer;
}

export interface V20Packet {
  payloadType: number;
  encrypted: boolean;
  authenticated: boolean;
  sessionId: number;
  seq: number;
  payload: Buffer;
}

export function encodeV20(payloadType: number, sessionId: number, seq: number, payload: Buffer, keys?: SessionKeys): Buffer {
  const encrypt = keys !== undefined && keys.suite.confidentiality !== 'none';
  const authenticate = keys !== undefined && keys.suite.integrity !== 'none';
  const body = encrypt ? aesEncrypt(keys.k2, payload) : payload;
  const hdr = Buffer.alloc(12);
  hdr[0] = 0x06;
  hdr[1] = (payloadType & 0x3f) | (encrypt ? 0x80 : 0) | (authenticate ? 0x40 : 0);
  hdr.writeUInt32LE(sessionId >>> 0, 2);
  hdr.writeUInt32LE(seq >>> 0, 6);
  hdr.writeUInt16LE(body.length, 10);
  if (!authenticate) return Buffer.concat([rmcpHeader(RMCP_CLASS_IPMI), hdr, body]);
  const padLen = (4 - ((hdr.length + body.length + 2) % 4)) % 4;
  const trailer = Buffer.alloc(padLen + 2, 0xff);
  trailer[padLen] = padLen;
  trailer[padLen + 1] = 0x07;
  const signed = Buffer.concat([hdr, body, trailer]);
  return Buffer.concat([rmcpHeader(RMCP_CLASS_IPMI), signed, integrityMac(keys.suite.integrity, keys.k1, signed)]);
}

/**
 * Decodes and, when keys are given, verifies and decrypts. Unauthenticated packets inside an
 * integrity-protected session are refused: accepting them would let anyone spoof responses.
 */
export function decodeV20(packet: Buffer, keys?: SessionKeys): V20Packet {
  if (rmcpClass(packet) !== RMCP_CLASS_IPMI) throw new IpmiProtocolError('not an IPMI RMCP packet');
  if (packet.length < 16) throw new IpmiProtocolError('RMCP+ packet truncated');
  if ((packet[4] & 0x0f) !== 0x06) throw new IpmiProtocolError('not an RMCP+ packet');
  const typeByte = packet[5];
  const encrypted = (typeByte & 0x80) !== 0;
  const authenticated = (typeByte & 0x40) !== 0;
  const payloadType = typeByte & 0x3f;
  if (payloadType === 0x02) throw new IpmiProtocolError('OEM explicit payloads are not supported');
  const sessionId = packet.readUInt32LE(6);
  const seq = packet.readUInt32LE(10);
  const len = packet.readUInt16LE(14);
  if (packet.length < 16 + len) throw new IpmiProtocolError('RMCP+ payload truncated');
  let payload: Buffer = packet.subarray(16, 16 + len);
  if (keys && keys.suite.integrity !== 'none' && payloadType === PAYLOAD_IPMI) {
    if (!authenticated) throw new IpmiIntegrityError('unauthenticated packet in an integrity-protected session');
    verifyTrailer(packet, 16 + len, keys);
  }
  if (encrypted) {
    if (!keys || keys.suite.confidentiality === 'none') throw new IpmiProtocolError('unexpected encrypted payload');
    payload = aesDecrypt(keys.k2, payload);
  } else if (keys && keys.suite.confidentiality !== 'none' && payloadType === PAYLOAD_IPMI) {
    throw new IpmiIntegrityError('unencrypted payload in a confidential session');
  }
  return { payloadType, encrypted, authenticated, sessionId, seq, payload: Buffer.from(payload) };
}

function verifyTrailer(packet: Buffer, payloadEnd: number, keys: SessionKeys): void {
  const macLen = integrityLength(keys.suite.integrity);
  const macStart = packet.length - macLen;
  if (macStart < payloadEnd + 2) throw new IpmiProtocolError('RMCP+ integrity trailer truncated');
  const padLen = packet[macStart - 2];
  if (packet[macStart - 1] !== 0x07 || macStart - 2 - padLen !== payloadEnd) {
    throw new IpmiProtocolError('RMCP+ integrity trailer malformed');
  }
  const expected = integrityMac(keys.suite.integrity, keys.k1, packet.subarray(4, macStart));
  if (!safeEqual(expected, packet.subarray(macStart))) throw new IpmiIntegrityError('RMCP+ integrity HMAC mismatch');
}
