/**
 * Cryptographically random bytes served from a refillable pool: IVs, RAKP nonces and session ids
 * are needed per packet, and one getrandom call per 16 bytes dominated a 10,000-BMC sweep.
 */
import { randomFillSync } from 'node:crypto';

const POOL_SIZE = 64 * 1024;
const pool = Buffer.alloc(POOL_SIZE);
let offset = POOL_SIZE;

export function secureRandomBytes(n: number): Buffer {
  if (n > POOL_SIZE) return randomFillSync(Buffer.alloc(n));
  if (offset + n > POOL_SIZE) {
    randomFillSync(pool);
    offset = 0;
  }
  const out = Buffer.from(pool.subarray(offset, offset + n));
  // Served bytes are wiped so they can never be handed out twice.
  pool.fill(0, offset, offset + n);
  offset += n;
  return out;
}

/** A non-zero 32-bit value (session ids must not be 0). */
export function secureRandomU32NonZero(): number {
  let v = 0;
  while (v === 0) v = secureRandomBytes(4).readUInt32LE(0);
  return v;
}
