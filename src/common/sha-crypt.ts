/**
 * SHA-256 and SHA-512 based crypt(3) hashes (`$5$salt$hash`, `$6$[rounds=N$]salt$hash`), per
 * Ulrich Drepper's "Unix crypt using SHA-256 and SHA-512" specification: /etc/shadow entries for
 * injected admin passwords, and Ironic's hashed rescue passwords (Python's crypt.crypt).
 */
import { createHash, randomBytes } from 'node:crypto';

const ITOA64 = './0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const DEFAULT_ROUNDS = 5000;
const MIN_ROUNDS = 1000;
const MAX_ROUNDS = 999_999_999;

export class CryptError extends Error {
  override readonly name = 'CryptError';
}

interface Variant {
  id: '5' | '6';
  hash: 'sha256' | 'sha512';
  /** Byte order of the final digest in the encoded output (from the spec). */
  order: ReadonlyArray<readonly [number, number, number]>;
  /** The last, partial group of the encoding. */
  tail(d: Buffer): string;
}

const SHA256: Variant = {
  id: '5', hash: 'sha256',
  order: [[0, 10, 20], [21, 1, 11], [12, 22, 2], [3, 13, 23], [24, 4, 14], [15, 25, 5], [6, 16, 26], [27, 7, 17],
    [18, 28, 8], [9, 19, 29]],
  tail: (d) => encode24(0, d[31]!, d[30]!, 3),
};

const SHA512: Variant = {
  id: '6', hash: 'sha512',
  order: [[0, 21, 42], [22, 43, 1], [44, 2, 23], [3, 24, 45], [25, 46, 4], [47, 5, 26], [6, 27, 48],
    [28, 49, 7], [50, 8, 29], [9, 30, 51], [31, 52, 10], [53, 11, 32], [12, 33, 54], [34, 55, 13],
    [56, 14, 35], [15, 36, 57], [37, 58, 16], [59, 17, 38], [18, 39, 60], [40, 61, 19], [62, 20, 41]],
  tail: (d) => encode24(0, 0, d[63]!, 2),
};

function digest(hash: Variant['hash'], parts: Buffer[]): Buffer {
  const h = createHash(hash);
  for (const p of parts) h.update(p);
  return h.digest();
}

/** `len` bytes made of `block` repeated (the spec's P and S sequences). */
function repeatTo(block: Buffer, len: number): Buffer {
  const out = Buffer.alloc(len);
  for (let i = 0; i < len; i += block.length) block.copy(out, i, 0, Math.min(block.length, len - i));
  return out;
}

function encode24(b2: number, b1: number, b0: number, n: number): string {
  let w = (b2 << 16) | (b1 << 8) | b0;
  let s = '';
  for (let i = 0; i < n; i++) {
    s += ITOA64[w & 0x3f];
    w >>>= 6;
  }
  return s;
}

function digestRounds(hash: Variant['hash'], pw: Buffer, salt: Buffer, rounds: number): Buffer {
  const b = digest(hash, [pw, salt, pw]);
  const aParts = [pw, salt, repeatTo(b, pw.length)];
  for (let n = pw.length; n > 0; n >>= 1) aParts.push(n & 1 ? b : pw);
  let c = digest(hash, aParts);
  const p = repeatTo(digest(hash, Array<Buffer>(pw.length).fill(pw)), pw.length);
  const s = repeatTo(digest(hash, Array<Buffer>(16 + c[0]!).fill(salt)), salt.length);
  for (let i = 0; i < rounds; i++) {
    const parts: Buffer[] = [i & 1 ? p : c];
    if (i % 3) parts.push(s);
    if (i % 7) parts.push(p);
    parts.push(i & 1 ? c : p);
    c = digest(hash, parts);
  }
  return c;
}

function randomSalt(length = 16): string {
  return [...randomBytes(length)].map((x) => ITOA64[x & 0x3f]).join('');
}

function shaCrypt(v: Variant, password: string, saltIn: string, rounds?: number): string {
  // The spec truncates salts to 16 characters; we also refuse characters
  // that would break the `$`-separated shadow field.
  const salt = saltIn.slice(0, 16);
  if (!/^[./0-9A-Za-z]{1,16}$/.test(salt)) throw new CryptError('salt must be characters of [./0-9A-Za-z]');
  const r = rounds === undefined ? DEFAULT_ROUNDS : Math.min(MAX_ROUNDS, Math.max(MIN_ROUNDS, rounds));
  const d = digestRounds(v.hash, Buffer.from(password, 'utf8'), Buffer.from(salt, 'latin1'), r);
  let out = '';
  for (const [x, y, z] of v.order) out += encode24(d[x]!, d[y]!, d[z]!, 4);
  out += v.tail(d);
  const prefix = rounds === undefined ? `$${v.id}$` : `$${v.id}$rounds=${r}$`;
  return `${prefix}${salt}$${out}`;
}

/** crypt(password, "$5$[rounds=N$]salt") */
export function sha256Crypt(password: string, salt = randomSalt(), rounds?: number): string {
  return shaCrypt(SHA256, password, salt, rounds);
}

/** crypt(password, "$6$[rounds=N$]salt") */
export function sha512Crypt(password: string, salt = randomSalt(), rounds?: number): string {
  return shaCrypt(SHA512, password, salt, rounds);
}
