/**
 * JSON text as Python's json.dumps writes it (", " and ": " separators, non-ASCII escaped as
 * \uXXXX), so clients see Ironic's exact bytes. Strings and numbers go through the native
 * JSON.stringify; only the structure is walked here.
 */
const HAS_NON_ASCII = /[\u007f-\uffff]/;

export function pyJsonDumps(value: unknown): string {
  const text = dump(value);
  return HAS_NON_ASCII.test(text) ? escapeNonAscii(text) : text;
}

function dump(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) {
    let out = '[';
    for (let i = 0; i < v.length; i++) out += (i === 0 ? '' : ', ') + dump(v[i]);
    return out + ']';
  }
  if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return JSON.stringify(v);
  let out = '{';
  let first = true;
  for (const key in v as Record<string, unknown>) {
    const item = (v as Record<string, unknown>)[key];
    if (item === undefined || typeof item === 'function') continue;
    out += (first ? '' : ', ') + JSON.stringify(key) + ': ' + dump(item);
    first = false;
  }
  return out + '}';
}

/** Non-ASCII can only sit inside JSON strings, so escaping the whole text is safe. */
function escapeNonAscii(text: string): string {
  return text.replace(/[\u007f-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
