/**
 * Option negotiation for read requests: blksize (RFC 2348), timeout and
 * tsize (RFC 2349), windowsize (RFC 7440). Unknown or out-of-range options
 * are simply left out of the OACK, as RFC 2347 allows.
 */

const DEFAULT_BLKSIZE = 512;
const MIN_BLKSIZE = 8;
export const MAX_BLKSIZE = 65464;

export interface NegotiationLimits {
  /** Largest block size we will agree to (clients asking more get this). */
  maxBlksize: number;
  /** Largest window we will agree to. */
  maxWindowsize: number;
  /**
   * Largest client timeout (seconds) we will agree to. RFC 2349 lets a
   * server only accept the requested value or leave it out, so a larger one
   * is declined and our own retransmission timeout applies.
   */
  maxTimeoutS: number;
}

export interface TransferParams {
  blksize: number;
  /** Per-packet retransmission timeout in milliseconds. */
  timeoutMs: number;
  windowsize: number;
  /** Options to echo in an OACK; empty means no OACK is sent. */
  accepted: Map<string, string>;
}

function parseIntStrict(value: string): number | undefined {
  return /^\d{1,10}$/.test(value) ? Number(value) : undefined;
}

export function negotiate(
  requested: Map<string, string>,
  fileSize: number,
  defaultTimeoutMs: number,
  limits: NegotiationLimits,
): TransferParams {
  const accepted = new Map<string, string>();
  let blksize = DEFAULT_BLKSIZE;
  let timeoutMs = defaultTimeoutMs;
  let windowsize = 1;

  const bs = parseIntStrict(requested.get('blksize') ?? '');
  if (bs !== undefined && bs >= MIN_BLKSIZE) {
    blksize = Math.min(bs, limits.maxBlksize, MAX_BLKSIZE);
    accepted.set('blksize', String(blksize));
  }
  const to = parseIntStrict(requested.get('timeout') ?? '');
  if (to !== undefined && to >= 1 && to <= Math.min(255, limits.maxTimeoutS)) {
    timeoutMs = to * 1000;
    accepted.set('timeout', String(to));
  }
  // A read request carries tsize=0; the answer is the real file size.
  if (requested.has('tsize')) accepted.set('tsize', String(fileSize));
  const ws = parseIntStrict(requested.get('windowsize') ?? '');
  if (ws !== undefined && ws >= 1 && ws <= 65535) {
    windowsize = Math.min(ws, limits.maxWindowsize);
    accepted.set('windowsize', String(windowsize));
  }
  return { blksize, timeoutMs, windowsize, accepted };
}
