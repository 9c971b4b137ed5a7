/**
 * JSON text exactly as Python's json.dumps() writes it with default arguments, which is what
 * Ironic's JsonEncodedDict/List columns hold: ", " and ": " separators, non-ASCII escaped as
 * \uXXXX, floats in repr() form. Keeping the bytes identical lets Python Ironic and ironic-ts
 * share rows without spurious diffs.
 */
import { lookupTable } from '../common/own-keys';

const SHORT_ESCAPES: Readonly<Record<string, string>> = lookupTable({
  '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f',
});

function encodeString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    const code = s.charCodeAt(i);
    const short = SHORT_ESCAPES[ch];
    if (short !== undefined) out += short;
    else if (code < 0x20 || code > 0x7e) out += '\\u' + code.toString(16).padStart(4, '0');
    else out += ch;
  }
  return out + '"';
}

/** Python float repr: exponent form below 1e-4 or from 1e16, exponent padded to two digits. */
function encodeNumber(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? 'Infinity' : '-Infinity';
  // Safe integers are Python ints; beyond 2**53 a JSON number can only have been a float.
  if (Number.isSafeInteger(n)) return n.toFixed(0);
  const abs = Math.abs(n);
  const text = abs < 1e-4 || abs >= 1e16 ? n.toExponential() : String(n);
  return text.replace(/e([+-])(\d)$/, 'e$10$2');
}

export function pythonJsonDumps(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'string': return encodeString(value);
    case 'number': return encodeNumber(value);
    case 'boolean': return value ? 'true' : 'false';
    case 'bigint': return value.toString();
    case 'object': break;
    default: return 'null';
  }
  if (value instanceof Date) return encodeString(value.toISOString());
  if (Array.isArray(value)) return '[' + value.map(pythonJsonDumps).join(', ') + ']';
  const parts: string[] = [];
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (item === undefined) continue;
    parts.push(encodeString(key) + ': ' + pythonJsonDumps(item));
  }
  return '{' + parts.join(', ') + '}';
}

const MARK = '\u2063pyjson-number\u2063';

/** Reads JSON Python wrote, including its non-standard NaN/Infinity tokens. */
export function pythonJsonLoads(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    if (!/NaN|Infinity/.test(text)) throw err;
    const marked = text.replace(/(?<=[\[:,]\s*)(-?Infinity|NaN)(?=\s*[,\]}])/g, `"${MARK}$1"`);
    return JSON.parse(marked, (_k, v: unknown) => {
      if (typeof v === 'string' && v.startsWith(MARK)) return Number(v.slice(MARK.length));
      return v;
    });
  }
}
