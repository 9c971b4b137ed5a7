/**
 * JSON text as Python's json.dumps writes it with default arguments
 * (separators ", " and ": ", ensure_ascii), so files we generate match the
 * bytes Ironic/openstacksdk would write for the same data.
 */

function quote(s: string): string {
  // JSON.stringify escapes control characters and quotes; Python then also
  // escapes every non-ASCII code unit as \uXXXX (ensure_ascii=True).
  return JSON.stringify(s).replace(/[\u007f-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

function numberText(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? 'Infinity' : '-Infinity';
  return String(n);
}

export function pythonJsonDumps(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number') return numberText(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) return '[' + value.map(pythonJsonDumps).join(', ') + ']';
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return '{' + entries.map(([k, v]) => `${quote(k)}: ${pythonJsonDumps(v)}`).join(', ') + '}';
  }
  throw new TypeError(`cannot serialise ${typeof value} as JSON`);
}
