/**
 * SHA-256 based crypt(3) hashes (`$5$salt$hash`), per Ulrich Drepper's "Unix crypt using
 * SHA-256 and SHA-512" specification: what Python's crypt.crypt(pw, crypt.mksalt(METHOD_SHA256))
 * gives, the default form of Ironic's hashed rescue password.
 */
import { createHash } from 'node:crypto';
import { CryptError, randomSalt } from '../images/sha512-crypt';

const ITOA64 = './0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const ROUNDS = 5000;

/** Byte order of the final digest in the encoded output (from the spec). */
const ORDER: Array<[number, number, number]> = [
  [0, 10, 20], [21, 1, 11], [12, 22, 2], [3, 13, 23], [24, 4, 14], [15, 25, 5], [6, 16, 26], [27, 7, 17],
  [18, 28, 8], [9, 19, 29],
];

function sha256(...parts: Buffer[]): Buffer {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
}

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

function digestRounds(pw: Buffer, salt: Buffer): Buffer {
  const b = sha256(pw, salt, pw);
  const aParts = [pw, salt, repeatTo(b, pw.length)];
  for (let n = pw.length; n > 0; n >>= 1) aParts.push(n & 1 ? b : pw);
  let c = sha256(...aParts);
  const p = repeatTo(sha256(...Array<Buffer>(pw.length).fill(pw)), pw.length);
  const s = repeatTo(sha256(...Array<Buffer>(16 + c[0]!).fill(salt)), salt.length);
  for (let i = 0; i < ROUNDS; i++) {
    const parts: Buffer[] = [i & 1 ? p : c];
    if (i % 3) parts.push(s);
    if (i % 7) parts.push(p);
    parts.push(i & 1 ? c : p);
    c = sha256(...parts);
  }
  return c;
}

/** crypt(password, "$5$salt") with the default 5000 rounds. */
export function sha256Crypt(password: string, saltIn = randomSalt()): string {
  const salt = saltIn.slice(0, 16);
  if (!/^[./0-9A-Za-z]{1,16}$/.test(salt)) throw new CryptError('salt must be characters of [./0-9A-Za-z]');
  const d = digestRounds(Buffer.from(password, 'utf8'), Buffer.from(salt, 'latin1'));
  let out = '';
  for (const [x, y, z] of ORDER) out += encode24(d[x]!, d[y]!, d[z]!, 4);
  out += encode24(0, d[31]!, d[30]!, 3);
  return `$5$${salt}$${out}`;
}
