/** pprint.pformat(value, width=72) for JSON-like values: dict keys sorted, one item per line when too wide. */
import { emptyDict } from '../own-keys';
import { pyRepr } from './repr';

export function pformat(value: unknown, indent = 0, allowance = 0, width = 72): string {
  const flat = pyRepr(sortedCopy(value));
  if (flat.length <= width - indent - allowance) return flat;
  if (Array.isArray(value) && value.length > 0) {
    const inner = indent + 1;
    const parts = value.map((item, i) => pformat(item, inner, i === value.length - 1 ? allowance + 1 : 1, width));
    return `[${parts.join(`,\n${' '.repeat(inner)}`)}]`;
  }
  if (isObject(value) && Object.keys(value).length > 0) {
    const keys = Object.keys(value).sort();
    const inner = indent + 1;
    const parts = keys.map((k, i) => {
      const rk = pyRepr(k);
      return `${rk}: ${pformat(value[k], inner + rk.length + 2, i === keys.length - 1 ? allowance + 1 : 1, width)}`;
    });
    return `{${parts.join(`,\n${' '.repeat(inner)}`)}}`;
  }
  return flat;
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
