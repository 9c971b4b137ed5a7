/**
 * JSON text as Python's json.dumps writes it (", " and ": " separators, non-ASCII escaped), used
 * for error bodies so clients that compare them byte for byte see Ironic's exact text.
 */
export function pyJsonDumps(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return escapeAscii(JSON.stringify(value));
  if (typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pyJsonDumps).join(', ')}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  return `{${entries.map(([k, v]) => `${escapeAscii(JSON.stringify(k))}: ${pyJsonDumps(v)}`).join(', ')}}`;
}

function escapeAscii(text: string): string {
  return text.replace(/[\u007f-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
