/**
 * Python's repr() of JSON-like values, for messages Nova formats with `%s` of a dict (the
 * ValidationError text shows Ironic's validate answers as `{'result': False, 'reason': '...'}`).
 */
function reprString(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  const body = s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t');
  return quote + (quote === "'" ? body.replace(/'/g, "\\'") : body) + quote;
}

export function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : String(value);
  if (typeof value === 'string') return reprString(value);
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  const entries = Object.entries(value as Record<string, unknown>);
  return `{${entries.map(([k, v]) => `${reprString(k)}: ${pythonRepr(v)}`).join(', ')}}`;
}
