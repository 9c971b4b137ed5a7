/**
 * htpasswd's bcrypt digests, checked with the kept `bcrypt` library, whose compare runs on libuv's
 * threadpool: a flood of wrong passwords no longer stalls the event loop for every other request.
 */
import * as bcrypt from 'bcrypt';

/** `$2a$`, `$2b$` or `$2y$`, a two-digit cost, 22 characters of salt and 31 of checksum. */
const DIGEST = /^\$2[aby]\$(\d{2})\$[./A-Za-z0-9]{53}$/;
const MIN_COST = 4;
const MAX_COST = 31;

/**
 * As `$2b$`: the library refuses Apache's `$2y$` (the same algorithm), and with `$2a$` lets the
 * key length wrap past 255 bytes, where `$2b$` (as Python's bcrypt does for every variant) counts
 * the first 72 bytes; below that the three agree byte for byte.
 */
function asVariantB(digest: string): string {
  return `$2b$${digest.slice(4)}`;
}

/** The digest's cost (log2 of its rounds), or null when it is no bcrypt digest. */
export function costOf(digest: string): number | null {
  const m = DIGEST.exec(digest);
  const cost = m ? Number(m[1]) : NaN;
  return cost >= MIN_COST && cost <= MAX_COST ? cost : null;
}

/** bcrypt.checkpw, off the event loop; false for anything that is not a bcrypt digest. */
export async function checkPassword(password: Buffer, digest: string): Promise<boolean> {
  if (costOf(digest) === null) return false;
  return bcrypt.compare(password, asVariantB(digest));
}

const decoys = new Map<number, string>();

/**
 * A digest of this cost that no password matches (a fresh salt, a checksum of zeros): checking
 * an unknown user's password against it costs what checking a known user's does.
 */
export function decoyDigest(cost: number): string {
  const bounded = Math.min(MAX_COST, Math.max(MIN_COST, cost));
  let decoy = decoys.get(bounded);
  if (!decoy) {
    decoy = `${bcrypt.genSaltSync(bounded, 'b')}${'.'.repeat(31)}`;
    decoys.set(bounded, decoy);
  }
  return decoy;
}
