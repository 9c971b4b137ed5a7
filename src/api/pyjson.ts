/**
 * JSON text as Python's json.dumps writes it (", " and ": " separators, non-ASCII escaped as
 * \uXXXX), so clients see Ironic's exact bytes.
 *
 * Built from the native, compact JSON.stringify: its only difference from Python's layout is the
 * missing space after each structural "," and ":", which one pass over the bytes adds (tracking
 * whether it is inside a string). Walking the value in JS instead built millions of short-lived
 * strings on a 1,000-node page, and an indented stringify is several times slower than compact.
 *
 * Numbers therefore keep JSON.stringify's spelling, and pyJsonFragment copies it so both paths give
 * the same bytes: Python's (src/common/python/float.ts, used by the DB columns' json.dumps) differs
 * below 1e-4 and from 1e16 (`1e-05` against `0.00001`), and re-spelling them would slow the byte
 * pass every page goes through. Stored JSON columns are spliced in as written, in Python's spelling.
 */
import { STORED_JSON_MARK, withStoredJsonMarks } from '../db/stored-json';
import { JSON_CHARS } from '../common/json-chars';

const HAS_NON_ASCII = /[\u007f-\uffff]/;
const { QUOTE, BACKSLASH, COMMA, COLON, SPACE } = JSON_CHARS;
const SMALL_BODY = 2048;

/** The body bytes (pure ASCII) for a response. */
export function pyJsonBytes(value: unknown): Buffer {
  const { result, texts } = withStoredJsonMarks(() => JSON.stringify(value) as string | undefined);
  if (result === undefined) return Buffer.from('null');
  const text = HAS_NON_ASCII.test(result) ? escapeNonAscii(result) : result;
  return spaceSeparators(text, texts.map(asciiJson));
}

/** Stored JSON written by json.dumps is ASCII already; anything else is escaped the same way. */
export function asciiJson(text: string): string {
  return Buffer.byteLength(text, 'utf8') === text.length ? text : escapeNonAscii(text);
}

export function pyJsonDumps(value: unknown): string {
  return pyJsonBytes(value).toString('latin1');
}

const NEEDS_ESCAPE = /["\\\u0000-\u001f\u007f-\uffff]/;

/** json.dumps of one string: quoted, with Python's escapes (\uXXXX for non-ASCII). */
export function jsonString(text: string): string {
  return NEEDS_ESCAPE.test(text) ? escapeNonAscii(JSON.stringify(text)) : `"${text}"`;
}

/**
 * pyJsonDumps for a small value, built directly: the stringify-and-copy pass costs more than it
 * saves on the few hundred bytes of one node's masked dict. Values with toJSON take the full path.
 */
export function pyJsonFragment(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'string': return jsonString(value);
    case 'number': return Number.isFinite(value) ? String(value) : 'null'; // JSON.stringify's spelling
    case 'boolean': return value ? 'true' : 'false';
    case 'object': break;
    default: return pyJsonDumps(value);
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return pyJsonDumps(value);
  if (Array.isArray(value)) {
    return `[${value.map((item) => (typeof item === 'function' ? 'null' : pyJsonFragment(item))).join(', ')}]`;
  }
  const parts: string[] = [];
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    parts.push(`${jsonString(key)}: ${pyJsonFragment(item)}`);
  }
  return `{${parts.join(', ')}}`;
}

/** Non-ASCII can only sit inside JSON strings, so escaping the whole text is safe. */
function escapeNonAscii(text: string): string {
  return text.replace(/[\u007f-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Copies ASCII JSON text into a buffer, adding a space after each "," and ":" outside strings and
 * putting each stored text in place of its marker string. Sized for the worst case; pages of the
 * tail never written are never touched, so cost nothing.
 */
function spaceSeparators(text: string, stored: string[]): Buffer {
  const n = text.length;
  const size = n * 2 + stored.reduce((sum, t) => sum + t.length, 0);
  // Small bodies come from Node's shared buffer pool; big ones get their own, lazily touched, memory.
  const out = size < SMALL_BODY ? Buffer.allocUnsafe(size) : Buffer.allocUnsafeSlow(size);
  let j = 0;
  let inString = false;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      out[j++] = c;
      if (c === BACKSLASH) out[j++] = text.charCodeAt(++i);
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      if (stored.length > 0 && text.startsWith(STORED_JSON_MARK, i + 1)) {
        const end = text.indexOf('"', i + 1 + STORED_JSON_MARK.length);
        j += out.write(stored[Number(text.slice(i + 1 + STORED_JSON_MARK.length, end))], j, 'latin1');
        i = end;
        continue;
      }
      out[j++] = c;
      inString = true;
    } else {
      out[j++] = c;
      if (c === COMMA || c === COLON) out[j++] = SPACE;
    }
  }
  return out.subarray(0, j);
}
