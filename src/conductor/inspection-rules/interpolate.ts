/**
 * Base.interpolate_variables: rule arguments may name inspection data in Python str.format syntax,
 * `{inventory[cpu][count]}`, `{node.properties[cpu_arch]}`, `{plugin_data[x]}`, `{item}` in loops.
 * Fields are resolved as Python's format does (`.attr` and `[key]`, digits indexing lists) and
 * printed with str(); any failure leaves the string as it was (Ironic logs a warning).
 */
import { log } from '../../common/log';
import { pyStr } from '../../common/python/str';

export type FormatContext = Record<string, unknown>;

class FormatFailure extends Error {}

function member(value: unknown, key: string, attribute: boolean): unknown {
  if (Array.isArray(value) && !attribute && /^\d+$/.test(key)) {
    const i = Number(key);
    if (i >= value.length) throw new FormatFailure(`list index out of range`);
    return value[i];
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(value, key)) {
    return (value as Record<string, unknown>)[key];
  }
  throw new FormatFailure(attribute ? `no attribute '${key}'` : `'${key}'`);
}

/** One replacement field's value: `name(.attr|[key])*`, with no conversion or format spec. */
function resolveField(field: string, context: FormatContext): unknown {
  const head = /^[^.[]+/.exec(field);
  if (!head || !Object.hasOwn(context, head[0])) throw new FormatFailure(`'${field}'`);
  let value = context[head[0]];
  const rest = /\.([^.[]+)|\[([^\]]+)\]/g;
  let at = head[0].length;
  for (let m = rest.exec(field); m !== null && m.index === at; m = rest.exec(field)) {
    value = m[1] !== undefined ? member(value, m[1], true) : member(value, m[2], false);
    at = rest.lastIndex;
  }
  if (at !== field.length) throw new FormatFailure(`Invalid field ${field}`);
  return value;
}

/** str.format(**context) of one string; `{{`/`}}` are literal braces. */
function pyFormat(text: string, context: FormatContext): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '{' && text[i + 1] === '{') { out += '{'; i++; continue; }
    if (ch === '}' && text[i + 1] === '}') { out += '}'; i++; continue; }
    if (ch === '}') throw new FormatFailure("Single '}' encountered in format string");
    if (ch !== '{') { out += ch; continue; }
    const end = text.indexOf('}', i);
    if (end < 0) throw new FormatFailure("expected '}' before end of string");
    const field = text.slice(i + 1, end);
    if (field === '' || /[!:]/.test(field)) throw new FormatFailure(`unsupported field {${field}}`);
    out += pyStr(resolveField(field, context));
    i = end;
  }
  return out;
}

function safeFormat(value: unknown, context: FormatContext): unknown {
  if (typeof value !== 'string') return value;
  try {
    return pyFormat(value, context);
  } catch (err) {
    if (!(err instanceof FormatFailure)) throw err;
    log.warning(`Interpolation failed: ${value}: ${err.message}`);
    return value;
  }
}

/**
 * Strings formatted, dict keys too, lists and dicts walked. In a loop a string is formatted twice
 * (so `{item[x]}` may itself name data), except list items, as Ironic does.
 */
export function interpolate(value: unknown, context: FormatContext, loop = false): unknown {
  if (typeof value === 'string') return loop ? safeFormat(safeFormat(value, context), context) : safeFormat(value, context);
  if (Array.isArray(value)) {
    return value.map((v) => (typeof v === 'string' ? safeFormat(v, context) : interpolate(v, context, loop)));
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value)
      .map(([k, v]) => [String(safeFormat(k, context)), interpolate(v, context, loop)]));
  }
  return value;
}
