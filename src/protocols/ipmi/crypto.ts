/**
 * Key derivation and per-packet cryptography of RMCP+ (IPMI 2.0 sections 13.28-13.32) and the
 * IPMI 1.5 MD5 / straight-password auth codes (section 22.17.1).
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { secureRandomBytes } from './random-pool';
import type { AuthAlg, IntegrityAlg } from './cipher-suites';
import { IpmiIntegrityError, IpmiProtocolError } from './errors';

function hashName(alg: AuthAlg): 'sha1' | 'sha256' {
  return alg === 'hmac-sha256' ? 'sha256' : 'sha1';
}

export function authHmac(alg: AuthAlg, key: Buffer, data: Buffer): Buffer {
  if (alg === 'none') return Buffer.alloc(0);
  return createHmac(hashName(alg), key).update(data).digest();
}

/** RAKP4 carries a truncated HMAC: 12 bytes for SHA1, 16 for SHA256 (table 13-19). */
export function rakp4IcvLength(alg: AuthAlg): number {
  return alg === 'none' ? 0 : alg === 'hmac-sha256' ? 16 : 12;
}

/**
 * K1/K2 = HMAC(SIK, constant). The constant is 20 bytes for every algorithm (section 13.32), also
 * with SHA256, which is what ipmitool and real BMCs do.
 */
export function deriveK(alg: AuthAlg, sik: Buffer, constant: number): Buffer {
  if (alg === 'none') return Buffer.alloc(20, constant);
  return createHmac(hashName(alg), sik).update(Buffer.alloc(20, constant)).digest();
}

export function integrityLength(alg: IntegrityAlg): number {
  return alg === 'hmac-sha1-96' ? 12 : alg === 'hmac-sha256-128' ? 16 : 0;
}

export function integrityMac(alg: IntegrityAlg, k1: Buffer, data: Buffer): Buffer {
  if (alg === 'none') return Buffer.alloc(0);
  const h = createHmac(alg === 'hmac-sha256-128' ? 'sha256' : 'sha1', k1).update(data).digest();
  return h.subarray(0, integrityLength(alg));
}

export function safeEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** AES-CBC-128 with the IPMI pad: bytes 1,2,3... then the pad length, to a 16-byte multiple. */
export function aesEncrypt(k2: Buffer, plain: Buffer, iv: Buffer = secureRandomBytes(16)): Buffer {
  const padLen = (16 - ((plain.length + 1) % 16)) % 16;
  const pad = Buffer.alloc(padLen + 1);
  for (let i = 0; i < padLen; i++) pad[i] = i + 1;
  pad[padLen] = padLen;
  const cipher = createCipheriv('aes-128-cbc', k2.subarray(0, 16), iv);
  cipher.setAutoPadding(false);
  return Buffer.concat([iv, cipher.update(Buffer.concat([plain, pad])), cipher.final()]);
}

export function aesDecrypt(k2: Buffer, payload: Buffer): Buffer {
  if (payload.length < 32 || payload.length % 16 !== 0) {
    throw new IpmiProtocolError(`encrypted payload has bad length ${payload.length}`);
  }
  const decipher = createDecipheriv('aes-128-cbc', k2.subarray(0, 16), payload.subarray(0, 16));
  decipher.setAutoPadding(false);
  const plain = Buffer.concat([decipher.update(payload.subarray(16)), decipher.final()]);
  const padLen = plain[plain.length - 1];
  if (padLen > 15 || padLen + 1 > plain.length) throw new IpmiIntegrityError('bad confidentiality pad');
  return plain.subarray(0, plain.length - 1 - padLen);
}

/** The 16-byte password field of IPMI 1.5 (and the RAKP Kuid for users up to 20 bytes). */
export function padPassword(password: string, size: number): Buffer {
  const out = Buffer.alloc(size);
  Buffer.from(password, 'utf8').copy(out, 0, 0, size);
  return out;
}

export type V15AuthType = 'none' | 'md5' | 'password';
export const V15_AUTH_IDS: Readonly<Record<V15AuthType, number>> = { none: 0, md5: 2, password: 4 };

/** Auth code of a 1.5 session packet; empty for 'none' (the field is then omitted). */
export function v15AuthCode(type: V15AuthType, password: string, sessionId: number, seq: number, msg: Buffer): Buffer {
  if (type === 'none') return Buffer.alloc(0);
  const pw = padPassword(password, 16);
  if (type === 'password') return pw;
  const sid = Buffer.alloc(4);
  sid.writeUInt32LE(sessionId >>> 0);
  const sq = Buffer.alloc(4);
  sq.writeUInt32LE(seq >>> 0);
  return createHash('md5').update(Buffer.concat([pw, sid, msg, sq, pw])).digest();
}
