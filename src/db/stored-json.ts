/**
 * A JSON column's text exactly as stored, for read paths that only pass it on (node lists).
 *
 * Ironic stores these columns with Python's json.dumps, which is also the API's output format, so
 * a list can copy the stored text into the response instead of parsing it into objects and
 * serialising them again; that round trip dominated large detail pages. Anything else that
 * serialises a StoredJson (RPC, logs) gets the parsed value through toJSON.
 */
import { pythonJsonLoads } from '../common/python/json-loads';

let sink: string[] | null = null;
const MARK_PREFIX = `\u0000stored-json-${Math.random().toString(36).slice(2, 10)}:`;

export class StoredJson {
  constructor(readonly text: string) {}

  parse(): unknown {
    return pythonJsonLoads(this.text);
  }

  /** Inside withStoredJsonMarks, a marker string the caller swaps for the text; otherwise the value. */
  toJSON(): unknown {
    if (!sink) return this.parse();
    sink.push(this.text);
    return MARK_PREFIX + String(sink.length - 1);
  }
}

/** Runs a serialiser whose output carries markers for each StoredJson met; returns it with their texts. */
export function withStoredJsonMarks<T>(serialise: () => T): { result: T; texts: string[] } {
  const texts: string[] = [];
  const outer = sink;
  sink = texts;
  try {
    return { result: serialise(), texts };
  } finally {
    sink = outer;
  }
}

/** The marker as JSON.stringify writes it (the NUL escaped), which is what the serialiser's output holds. */
export const STORED_JSON_MARK = JSON.stringify(MARK_PREFIX).slice(1, -1);
