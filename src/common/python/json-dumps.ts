/**
 * JSON text exactly as Python's json.dumps() writes it with default arguments: ", " and ": "
 * separators, non-ASCII escaped as \uXXXX, floats in repr() form. It is what Ironic's
 * JsonEncodedDict/List columns hold (so Python Ironic and ironic-ts share rows without spurious
 * diffs) and what openstacksdk writes into config drives. The API's responses take the faster
 * src/api/pyjson.ts.
 */
import { lookupTable } from '../own-keys';
import { pyFloatText } from './float';

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

function encodeNumber(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? 'Infinity' : '-Infinity';
  // Safe integers are Python ints; beyond 2**53 a JSON number can only have been a float.
  if (Number.isSafeInteger(n)) return n.toFixed(0);
  return pyFloatText(n);
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
