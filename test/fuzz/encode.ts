/**
 * Percent-encoding for generated path segments and query parts. encodeURIComponent throws on a
 * lone surrogate, so strings go through their UTF-8 bytes (a lone surrogate becomes U+FFFD).
 */
const UNRESERVED = /[A-Za-z0-9\-._~]/;

export function percentEncode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += UNRESERVED.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Printable ASCII other than space: what node's parser accepts unencoded in a request target. */
const RAW_SAFE = /^[\x21-\x7e]*$/;

export type Encoding = 'encode' | 'raw' | 'double' | 'mangle';

/** One of several encodings of `text`; `raw` and `mangle` fall back to `encode` where node would refuse the bytes. */
export function encodeAs(text: string, how: Encoding): string {
  if (how === 'raw' && RAW_SAFE.test(text)) return text;
  if (how === 'double') return percentEncode(percentEncode(text));
  if (how === 'mangle' && RAW_SAFE.test(text)) return `${text}%`.replace(/^(.)/, '%$1');
  return percentEncode(text);
}
