/**
 * bcrypt password hashes ($2a$, $2b$, $2y$) as Provos and Mazières specify them: the expensive
 * Blowfish key schedule (EksBlowfish) over the salt and the NUL-terminated password (at most 72
 * bytes), 2^cost rounds, then "OrpheanBeholderScryDoubt" encrypted 64 times; 23 of its 24 bytes
 * are kept, written in bcrypt's own base64 alphabet.
 */
import { timingSafeEqual } from 'node:crypto';
import { piWords } from './pi-words';

const ALPHABET = './ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const MAGIC = Buffer.from('OrpheanBeholderScryDoubt', 'latin1');
const HASH_RE = /^\$(2[aby])\$(\d{2})\$([./A-Za-z0-9]{22})([./A-Za-z0-9]{31})$/;

class Blowfish {
  readonly p: Uint32Array;
  readonly s: Uint32Array;

  constructor() {
    const pi = piWords();
    this.p = pi.slice(0, 18);
    this.s = pi.slice(18);
  }

  private f(x: number): number {
    const s = this.s;
    return (((s[x >>> 24] + s[256 + ((x >>> 16) & 0xff)]) ^ s[512 + ((x >>> 8) & 0xff)]) + s[768 + (x & 0xff)]) >>> 0;
  }

  /** Encrypts the block in place: block[0] is the left half, block[1] the right. */
  encrypt(block: Uint32Array): void {
    let l = block[0];
    let r = block[1];
    for (let i = 0; i < 16; i += 2) {
      l = (l ^ this.p[i]) >>> 0;
      r = (r ^ this.f(l)) >>> 0;
      r = (r ^ this.p[i + 1]) >>> 0;
      l = (l ^ this.f(r)) >>> 0;
    }
    block[0] = (r ^ this.p[17]) >>> 0;
    block[1] = (l ^ this.p[16]) >>> 0;
  }

  /** The key schedule; with salt, each block is XORed with the cycling salt before encryption. */
  expand(key: Buffer, salt: Buffer | null): void {
    const keyStream = wordStream(key);
    for (let i = 0; i < 18; i += 1) this.p[i] = (this.p[i] ^ keyStream()) >>> 0;
    const saltStream = salt ? wordStream(salt) : null;
    const block = new Uint32Array(2);
    const next = (): void => {
      if (saltStream) {
        block[0] ^= saltStream();
        block[1] ^= saltStream();
      }
      this.encrypt(block);
    };
    for (let i = 0; i < 18; i += 2) {
      next();
      this.p[i] = block[0];
      this.p[i + 1] = block[1];
    }
    for (let i = 0; i < 1024; i += 2) {
      next();
      this.s[i] = block[0];
      this.s[i + 1] = block[1];
    }
  }
}

/** Big-endian 32-bit words read cyclically from data (OpenBSD's Blowfish_stream2word). */
function wordStream(data: Buffer): () => number {
  let j = 0;
  return () => {
    let word = 0;
    for (let k = 0; k < 4; k += 1) {
      word = ((word << 8) | data[j]) >>> 0;
      j = (j + 1) % data.length;
    }
    return word;
  };
}

export function decodeBase64(text: string, bytes: number): Buffer {
  const out: number[] = [];
  const values = [...text].map((c) => ALPHABET.indexOf(c));
  for (let i = 0; i < values.length && out.length < bytes; i += 4) {
    const [a, b, c = 0, d = 0] = values.slice(i, i + 4);
    out.push(((a << 2) | (b >> 4)) & 0xff);
    if (out.length < bytes) out.push(((b << 4) | (c >> 2)) & 0xff);
    if (out.length < bytes) out.push(((c << 6) | d) & 0xff);
  }
  return Buffer.from(out);
}

export function encodeBase64(data: Buffer): string {
  let out = '';
  for (let i = 0; i < data.length; i += 3) {
    const a = data[i];
    const b = i + 1 < data.length ? data[i + 1] : 0;
    const c = i + 2 < data.length ? data[i + 2] : 0;
    out += ALPHABET[a >> 2] + ALPHABET[((a & 3) << 4) | (b >> 4)];
    if (i + 1 < data.length) out += ALPHABET[((b & 15) << 2) | (c >> 6)];
    if (i + 2 < data.length) out += ALPHABET[c & 63];
  }
  return out;
}

/** The bcrypt digest of password with this cost and 16-byte salt, as `$<variant>$<cost>$<salt><hash>`. */
export function bcryptHash(password: Buffer, cost: number, salt: Buffer, variant = '2b'): string {
  if (cost < 4 || cost > 31 || salt.length !== 16) throw new Error('bcrypt needs a cost of 4..31 and a 16-byte salt');
  const key = Buffer.concat([password, Buffer.from([0])]).subarray(0, 72);
  const state = new Blowfish();
  state.expand(key, salt);
  for (let round = 0, rounds = 2 ** cost; round < rounds; round += 1) {
    state.expand(key, null);
    state.expand(salt, null);
  }
  const text = new Uint32Array(6);
  for (let i = 0; i < 6; i += 1) text[i] = MAGIC.readUInt32BE(i * 4);
  const block = new Uint32Array(2);
  for (let i = 0; i < 64; i += 1) {
    for (let j = 0; j < 6; j += 2) {
      block[0] = text[j];
      block[1] = text[j + 1];
      state.encrypt(block);
      text[j] = block[0];
      text[j + 1] = block[1];
    }
  }
  const digest = Buffer.alloc(24);
  for (let i = 0; i < 6; i += 1) digest.writeUInt32BE(text[i], i * 4);
  return `$${variant}$${String(cost).padStart(2, '0')}$${encodeBase64(salt)}${encodeBase64(digest.subarray(0, 23))}`;
}

/** True when password matches a bcrypt hash (bcrypt.checkpw); false for anything malformed. */
export function bcryptVerify(password: Buffer, hash: string): boolean {
  const m = HASH_RE.exec(hash);
  if (!m) return false;
  const cost = Number(m[2]);
  if (cost < 4 || cost > 31) return false;
  const computed = Buffer.from(bcryptHash(password, cost, decodeBase64(m[3], 16), m[1]));
  const expected = Buffer.from(hash);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}
