/**
 * The one Range form boot clients and image downloaders use: a single `bytes=` range
 * (RFC 9110 §14.1.2). Several ranges are answered with the whole file, which the RFC allows.
 */

interface ByteRange {
  start: number;
  /** inclusive */
  end: number;
}

/** undefined: serve the whole file; 'unsatisfiable': 416; otherwise the clamped range. */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  if (!header) return undefined;
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m) return undefined;
  const [, first, last] = m;
  if (first === '' && last === '') return undefined;
  if (first === '') {
    // suffix range: the last N bytes
    const n = Number(last);
    if (n === 0) return 'unsatisfiable';
    return size === 0 ? 'unsatisfiable' : { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(first);
  if (start >= size) return 'unsatisfiable';
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (end < start) return undefined;
  return { start, end };
}
