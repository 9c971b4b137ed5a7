/**
 * pprint.pformat(value, width=72) for JSON-like values: dict keys sorted, one item per line when
 * too wide, and strings too wide split into adjacent literals at word ends (parenthesized at the top).
 */
import { emptyDict } from '../own-keys';
import { pyRepr } from './repr';

export function pformat(value: unknown, indent = 0, allowance = 0, width = 72, nested = false): string {
  const flat = pyRepr(sortedCopy(value));
  if (flat.length <= width - indent - allowance) return flat;
  if (typeof value === 'string' && value !== '') return pformatStr(value, indent, allowance, width, nested);
  if (Array.isArray(value) && value.length > 0) {
    const inner = indent + 1;
    const parts = value.map((item, i) => pformat(item, inner, i === value.length - 1 ? allowance + 1 : 1, width, true));
    return `[${parts.join(`,\n${' '.repeat(inner)}`)}]`;
  }
  if (isObject(value) && Object.keys(value).length > 0) {
    const keys = Object.keys(value).sort();
    const inner = indent + 1;
    const parts = keys.map((k, i) => {
      const rk = pyRepr(k);
      return `${rk}: ${pformat(value[k], inner + rk.length + 2, i === keys.length - 1 ? allowance + 1 : 1, width, true)}`;
    });
    return `{${parts.join(`,\n${' '.repeat(inner)}`)}}`;
  }
  return flat;
}

/** PrettyPrinter._pprint_str: each line, and within a line runs of word + spaces, as wide as fit. */
function pformatStr(value: string, indent: number, allowance: number, width: number, nested: boolean): string {
  const top = !nested;
  const ind = top ? indent + 1 : indent;
  const allow = top ? allowance + 1 : allowance;
  const lines = value.match(/[^\n\r]*(?:\r\n|\n|\r)|[^\n\r]+$/g) ?? [value];
  const chunks: string[] = [];
  const maxWidth = width - ind;
  lines.forEach((line, i) => {
    const lastLine = i === lines.length - 1;
    const rep = pyRepr(line);
    if (rep.length <= (lastLine ? maxWidth - allow : maxWidth)) {
      chunks.push(rep);
      return;
    }
    const parts = line.match(/\S*\s*/g)?.filter((p) => p !== '') ?? [line];
    let current = '';
    parts.forEach((part, j) => {
      const candidate = current + part;
      const limit = j === parts.length - 1 && lastLine ? maxWidth - allow : maxWidth;
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
  const body = chunks.join(`\n${' '.repeat(ind)}`);
  return top ? `(${body})` : body;
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
