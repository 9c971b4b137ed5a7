/** Python's repr() of JSON-like values, for messages Ironic (and Nova) format with `%s` of a dict or list. */
import { pyFloatText } from './float';

export function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return reprNumber(value);
  if (typeof value === 'string') return reprString(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  const entries = Object.entries(value as Record<string, unknown>);
  return `{${entries.map(([k, v]) => `${reprString(k)}: ${pyRepr(v)}`).join(', ')}}`;
}

/** Integral numbers print as Python ints (what a JSON integer loads as), the rest as floats. */
function reprNumber(n: number): string {
  if (Number.isInteger(n)) return String(n);
  if (Number.isNaN(n)) return 'nan';
  if (!Number.isFinite(n)) return n > 0 ? 'inf' : '-inf';
  return pyFloatText(n);
}

function reprString(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  const body = s
    .replace(/\\/g, '\\\\')
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r')
    .replace(/\t/g, '\\t');
  return quote + (quote === "'" ? body.replace(/'/g, "\\'") : body) + quote;
}

/** repr() of a tuple: `('a', 'b')`, and `('a',)` for one item. */
export function pyReprTuple(items: readonly unknown[]): string {
  return items.length === 1 ? `(${pyRepr(items[0])},)` : `(${items.map(pyRepr).join(', ')})`;
}

/** repr() of a set, in the given order (Python's own order follows string hashes). */
export function pyReprSet(items: readonly unknown[]): string {
  return items.length === 0 ? 'set()' : `{${items.map(pyRepr).join(', ')}}`;
}
