// How a JSON body is spelled, independent of its content: the structural comparison cannot see that the
// reference writes Python's json.dumps style (`{"a": 1, "b": [1, 2]}`, non-ASCII as \uXXXX) and clients do
// see the bytes. Error bodies are classified twice: the envelope and the JSON inside `error_message`.

export type JsonStyle = 'python' | 'compact' | 'other';

export function bodyFormat(text: string): string {
  if (text === '') return 'empty';
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'not-json';
  }
  const outer = jsonStyle(text, parsed);
  const em = isRecord(parsed) ? parsed['error_message'] : undefined;
  if (typeof em !== 'string') return `${outer}-json`;
  try {
    return `${outer}-json, error_message ${jsonStyle(em, JSON.parse(em))}-json`;
  } catch {
    return `${outer}-json, error_message not-json`;
  }
}

/** A body nested past this harness's stack (a reference that stores any depth) has no comparable spelling. */
function jsonStyle(text: string, parsed: unknown): JsonStyle {
  try {
    if (text === pythonDumps(parsed)) return 'python';
    if (text === JSON.stringify(parsed)) return 'compact';
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
  }
  return 'other';
}

/** json.dumps(value) with Python's defaults, keeping the parsed key order. */
export function pythonDumps(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return pythonString(v);
  if (typeof v === 'number' || typeof v === 'boolean') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(pythonDumps).join(', ')}]`;
  if (isRecord(v)) return `{${Object.entries(v).map(([k, x]) => `${pythonString(k)}: ${pythonDumps(x)}`).join(', ')}}`;
  return String(v);
}

/** ensure_ascii=True: everything outside printable ASCII becomes \uXXXX (lower-case hex). */
function pythonString(s: string): string {
  return JSON.stringify(s).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
