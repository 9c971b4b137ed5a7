/** pprint.pformat(value, width=72) for JSON-like values: dict keys sorted, one item per line when too wide. */
import { emptyDict } from '../own-keys';
import { pyRepr } from './repr';

export function pformat(value: unknown, indent = 0, allowance = 0, width = 72, level = 1): string {
  const flat = pyRepr(sortedCopy(value));
  if (flat.length <= width - indent - allowance) return flat;
  if (Array.isArray(value) && value.length > 0) {
    const inner = indent + 1;
    const parts = value.map((item, i) => pformat(item, inner, i === value.length - 1 ? allowance + 1 : 1, width, level + 1));
    return `[${parts.join(`,\n${' '.repeat(inner)}`)}]`;
  }
  if (isObject(value) && Object.keys(value).length > 0) {
    const keys = Object.keys(value).sort();
    const inner = indent + 1;
    const parts = keys.map((k, i) => {
      const rk = pyRepr(k);
      return `${rk}: ${pformat(value[k], inner + rk.length + 2, i === keys.length - 1 ? allowance + 1 : 1, width, level + 1)}`;
    });
    return `{${parts.join(`,\n${' '.repeat(inner)}`)}}`;
  }
  if (typeof value === 'string' && value.length > 0) return pformatStr(value, indent, allowance, width, level);
  return flat;
}

/** str.splitlines(keepends=True) for the line breaks JSON text carries. */
function splitLines(text: string): string[] {
  return text.match(/[^\n\r]*(?:\r\n|\n|\r)|[^\n\r]+$/g) ?? [];
}

/**
 * PrettyPrinter._pprint_str: a string too wide is cut after whitespace into adjacent literals,
 * one per line (in parentheses at the top level), each within the width.
 */
function pformatStr(text: string, indentArg: number, allowanceArg: number, width: number, level: number): string {
  const indent = level === 1 ? indentArg + 1 : indentArg;
  const allowance = level === 1 ? allowanceArg + 1 : allowanceArg;
  const lines = splitLines(text);
  const chunks: string[] = [];
  const maxWidth = width - indent;
  lines.forEach((line, i) => {
    const last = i === lines.length - 1;
    const rep = pyRepr(line);
    if (rep.length <= maxWidth - (last ? allowance : 0)) {
      chunks.push(rep);
      return;
    }
    const parts = (line.match(/\S*\s*/g) ?? []).slice(0, -1);
    let current = '';
    parts.forEach((part, j) => {
      const candidate = current + part;
      const limit = maxWidth - (j === parts.length - 1 && last ? allowance : 0);
      if (pyRepr(candidate).length > limit) {
        if (current) chunks.push(pyRepr(current));
        current = part;
      } else {
        current = candidate;
      }
    });
    if (current) chunks.push(pyRepr(current));
  });
  if (chunks.length === 1) return chunks[0];
  const body = chunks.join(`\n${' '.repeat(indent)}`);
  return level === 1 ? `(${body})` : body;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function sortedCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedCopy);
  if (isObject(value)) {
    const out = emptyDict<unknown>();
    for (const k of Object.keys(value).sort()) out[k] = sortedCopy(value[k]);
    return out;
  }
  return value;
}
