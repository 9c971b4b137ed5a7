/**
 * RMCP+ session setup payloads (IPMI 2.0 sections 13.17-13.23) and the RAKP key-exchange HMACs
 * (section 13.31), shared by the client session and the simulator.
 */
import { AUTH_ALG_IDS, CONF_ALG_IDS, INTEGRITY_ALG_IDS, type CipherSuite } from './cipher-suites';
import { authHmac, deriveK, rakp4IcvLength } from './crypto';
import { IpmiProtocolError } from './errors';

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
}

function algRecord(kind: number, alg: number): Buffer {
  return Buffer.from([kind, 0, 0, 8, alg, 0, 0, 0]);
}

export function encodeOpenSessionRequest(tag: number, priv: number, consoleSid: number, suite: CipherSuite): Buffer {
  return Buffer.concat([
    Buffer.from([tag, priv, 0, 0]),
    u32(consoleSid),
    algRecord(0, AUTH_ALG_IDS[suite.auth]),
    algRecord(1, INTEGRITY_ALG_IDS[suite.integrity]),
    algRecord(2, CONF_ALG_IDS[suite.confidentiality]),
  ]);
}

export interface OpenSessionRequest {
  tag: number;
  priv: number;
  consoleSid: number;
  auth: number;
  integrity: number;
  confidentiality: number;
}

export function decodeOpenSessionRequest(p: Buffer): OpenSessionRequest {
  if (p.length < 32) throw new IpmiProtocolError('Open Session Request truncated');
  return { tag: p[0], priv: p[1] & 0x0f, consoleSid: p.readUInt32LE(4), auth: p[12], integrity: p[20], confidentiality: p[28] };
}

export interface OpenSessionResponse {
  tag: number;
  status: number;
  priv: number;
  consoleSid: number;
  bmcSid: number;
  auth: number;
  integrity: number;
  confidentiality: number;
}

export function encodeOpenSessionResponse(r: OpenSessionResponse): Buffer {
  if (r.status !== 0) return Buffer.concat([Buffer.from([r.tag, r.status, 0, 0]), u32(r.consoleSid)]);
  return Buffer.concat([
    Buffer.from([r.tag, r.status, r.priv, 0]),
    u32(r.consoleSid),
    u32(r.bmcSid),
    algRecord(0, r.auth),
    algRecord(1, r.integrity),
    algRecord(2, r.confidentiality),
  ]);
}

export function decodeOpenSessionResponse(p: Buffer): OpenSessionResponse {
  if (p.length < 2) throw new IpmiProtocolError('Open Session Response truncated');
  const status = p[1];
  if (status !== 0) {
    return { tag: p[0], status, priv: 0, consoleSid: p.length >= 8 ? p.readUInt32LE(4) : 0, bmcSid: 0, auth: 0, integrity: 0, confidentiality: 0 };
  }
  if (p.length < 36) throw new IpmiProtocolError('Open Session Response truncated');
  return {
    tag: p[0],
    status,
    priv: p[2],
    consoleSid: p.readUInt32LE(4),
    bmcSid: p.readUInt32LE(8),
    auth: p[16],
    integrity: p[24],
    confidentiality: p[32],
  };
}

/** Everything both RAKP sides mix into their HMACs. */
export interface RakpContext {
  suite: CipherSuite;
  consoleSid: number;
  bmcSid: number;
  consoleRandom: Buffer;
  bmcRandom: Buffer;
  bmcGuid: Buffer;
  /** The requested-role byte exactly as sent in RAKP1 (privilege plus lookup bit). */
  role: number;
  username: Buffer;
  kuid: Buffer;
  kg: Buffer;
}

export function encodeRakp1(tag: number, bmcSid: number, consoleRandom: Buffer, role: number, username: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag, 0, 0, 0]), u32(bmcSid), consoleRandom, Buffer.from([role, 0, 0, username.length]), username]);
}

export interface Rakp1 {
  tag: number;
  bmcSid: number;
  consoleRandom: Buffer;
  role: number;
  username: Buffer;
}

export function decodeRakp1(p: Buffer): Rakp1 {
  if (p.length < 28) throw new IpmiProtocolError('RAKP1 truncated');
  const ulen = p[27];
  if (ulen > 16 || p.length < 28 + ulen) throw new IpmiProtocolError('RAKP1 user name truncated');
  return { tag: p[0], bmcSid: p.readUInt32LE(4), consoleRandom: Buffer.from(p.subarray(8, 24)), role: p[24], username: Buffer.from(p.subarray(28, 28 + ulen)) };
}

export function rakp2Hmac(c: RakpContext): Buffer {
  const data = Buffer.concat([u32(c.consoleSid), u32(c.bmcSid), c.consoleRandom, c.bmcRandom, c.bmcGuid, Buffer.from([c.role, c.username.length]), c.username]);
  return authHmac(c.suite.auth, c.kuid, data);
}

export function rakp3Hmac(c: RakpContext): Buffer {
  const data = Buffer.concat([c.bmcRandom, u32(c.consoleSid), Buffer.from([c.role, c.username.length]), c.username]);
  return authHmac(c.suite.auth, c.kuid, data);
}

export function sessionIntegrityKey(c: RakpContext): Buffer {
  const data = Buffer.concat([c.consoleRandom, c.bmcRandom, Buffer.from([c.role, c.username.length]), c.username]);
  return authHmac(c.suite.auth, c.kg, data);
}

export function rakp4Icv(c: RakpContext, sik: Buffer): Buffer {
  const data = Buffer.concat([c.consoleRandom, u32(c.bmcSid), c.bmcGuid]);
  return authHmac(c.suite.auth, sik, data).subarray(0, rakp4IcvLength(c.suite.auth));
}

export function sessionKeys(c: RakpContext): { sik: Buffer; k1: Buffer; k2: Buffer } {
  const sik = sessionIntegrityKey(c);
  return { sik, k1: deriveK(c.suite.auth, sik, 0x01), k2: deriveK(c.suite.auth, sik, 0x02) };
}

export interface Rakp2 {
  tag: number;
  status: number;
  consoleSid: number;
  bmcRandom: Buffer;
  bmcGuid: Buffer;
  authCode: Buffer;
}

export function encodeRakp2(tag: number, status: number, consoleSid: number, bmcRandom: Buffer, bmcGuid: Buffer, authCode: Buffer): Buffer {
  if (status !== 0) return Buffer.concat([Buffer.from([tag, status, 0, 0]), u32(consoleSid)]);
  return Buffer.concat([Buffer.from([tag, status, 0, 0]), u32(consoleSid), bmcRandom, bmcGuid, authCode]);
}

export function decodeRakp2(p: Buffer): Rakp2 {
  if (p.length < 2) throw new IpmiProtocolError('RAKP2 truncated');
  if (p[1] !== 0) return { tag: p[0], status: p[1], consoleSid: 0, bmcRandom: Buffer.alloc(0), bmcGuid: Buffer.alloc(0), authCode: Buffer.alloc(0) };
  if (p.length < 40) throw new IpmiProtocolError('RAKP2 truncated');
  return {
    tag: p[0],
    status: 0,
    consoleSid: p.readUInt32LE(4),
    bmcRandom: Buffer.from(p.subarray(8, 24)),
    bmcGuid: Buffer.from(p.subarray(24, 40)),
    authCode: Buffer.from(p.subarray(40)),
  };
}

export function encodeRakp3(tag: number, status: number, bmcSid: number, authCode: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag, status, 0, 0]), u32(bmcSid), authCode]);
}

export interface Rakp3or4 {
  tag: number;
  status: number;
  sid: number;
  code: Buffer;
}

/** RAKP3 and RAKP4 share a layout: tag, status, reserved, a session id, then an auth code. */
export function decodeRakp3or4(p: Buffer, name: string): Rakp3or4 {
  if (p.length < 2) throw new IpmiProtocolError(`${name} truncated`);
  if (p[1] !== 0) return { tag: p[0], status: p[1], sid: 0, code: Buffer.alloc(0) };
  if (p.length < 8) throw new IpmiProtocolError(`${name} truncated`);
  return { tag: p[0], status: 0, sid: p.readUInt32LE(4), code: Buffer.from(p.subarray(8)) };
}

export function encodeRakp4(tag: number, status: number, consoleSid: number, icv: Buffer): Buffer {
  return encodeRakp3(tag, status, consoleSid, icv);
}
