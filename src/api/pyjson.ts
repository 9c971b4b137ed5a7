/**
 * JSON text as Python's json.dumps writes it (", " and ": " separators, non-ASCII escaped as
 * \uXXXX), so clients see Ironic's exact bytes.
 *
 * Built from the native, compact JSON.stringify: its only difference from Python's layout is the
 * missing space after each structural "," and ":", which one pass over the bytes adds (tracking
 * whether it is inside a string). Walking the value in JS instead built millions of short-lived
 * strings on a 1,000-node page, and an indented stringify is several times slower than compact.
 */
const HAS_NON_ASCII = /[\u007f-\uffff]/;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const SPACE = 0x20;
const SMALL_BODY = 2048;

/** The body bytes (pure ASCII) for a response. */
export function pyJsonBytes(value: unknown): Buffer {
  let text = JSON.stringify(value) as string | undefined;
  if (text === undefined) return Buffer.from('null');
  if (HAS_NON_ASCII.test(text)) text = escapeNonAscii(text);
  return spaceSeparators(text);
}

export function pyJsonDumps(value: unknown): string {
  return pyJsonBytes(value).toString('latin1');
}

/** Non-ASCII can only sit inside JSON strings, so escaping the whole text is safe. */
function escapeNonAscii(text: string): string {
  return text.replace(/[\u007f-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Copies ASCII JSON text into a buffer, adding a space after each "," and ":" outside strings.
 * Sized for the worst case; pages of the tail never written are never touched, so cost nothing.
 */
function spaceSeparators(text: string): Buffer {
  const n = text.length;
  // Small bodies come from Node's shared buffer pool; big ones get their own, lazily touched, memory.
  const out = n < SMALL_BODY ? Buffer.allocUnsafe(n * 2) : Buffer.allocUnsafeSlow(n * 2);
  let j = 0;
  let inString = false;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    out[j++] = c;
    if (inString) {
      if (c === BACKSLASH) out[j++] = text.charCodeAt(++i);
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === COMMA || c === COLON) {
      out[j++] = SPACE;
    }
  }
  return out.subarray(0, j);
}
