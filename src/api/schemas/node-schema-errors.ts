/**
 * str(jsonschema.ValidationError) for the few node messages Ironic formats with the whole error
 * ("Invalid clean_steps: %s", "Invalid configdrive format: %s"): the message, the failing keyword
 * and schema path, the failing sub-schema and instance pretty-printed as Python's pprint does.
 * Covers the keywords those schemas use; error choice follows jsonschema's best_match.
 */
import { pyRepr } from '../../common/python/repr';
import type { JsonType, Schema } from './jsonschema';
import { isType } from './jsonschema';
import { emptyDict } from '../../common/own-keys';

interface PathError {
  message: string;
  keyword: string;
  path: (string | number)[];
  schemaPath: (string | number)[];
  schema: Schema;
  instance: unknown;
  context: PathError[];
}

function typesOf(schema: Schema): JsonType[] | null {
  if (schema.type === undefined) return null;
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

function matchesType(e: PathError): boolean {
  const types = typesOf(e.schema);
  return types !== null && types.some((t) => isType(e.instance, t));
}

function make(keyword: string, message: string, schema: Schema, instance: unknown, context: PathError[] = []): PathError {
  return { message, keyword, path: [], schemaPath: [keyword], schema, instance, context };
}

function under(errors: PathError[], pathPart: string | number | null, schemaParts: (string | number)[]): PathError[] {
  for (const e of errors) {
    if (pathPart !== null) e.path.unshift(pathPart);
    e.schemaPath.unshift(...schemaParts);
  }
  return errors;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function keywordErrors(key: keyof Schema, v: unknown, s: Schema): PathError[] {
  switch (key) {
    case 'type': {
      const types = typesOf(s) as JsonType[];
      return types.some((t) => isType(v, t)) ? []
        : [make('type', `${pyRepr(v)} is not of type ${types.map((t) => pyRepr(t)).join(', ')}`, s, v)];
    }
    case 'properties':
      if (!isObject(v)) return [];
      return Object.entries(s.properties ?? {}).flatMap(([name, sub]) =>
        (Object.hasOwn(v, name) ? under(iterPathErrors(v[name], sub), name, ['properties', name]) : []));
    case 'required':
      if (!isObject(v)) return [];
      return (s.required ?? []).filter((n) => !Object.hasOwn(v, n)).map((n) => make('required', `${pyRepr(n)} is a required property`, s, v));
    case 'additionalProperties': {
      if (!isObject(v) || s.additionalProperties !== false) return [];
      const extras = Object.keys(v).filter((k) => !Object.hasOwn((s.properties ?? {}), k)).sort();
      if (extras.length === 0) return [];
      return [make('additionalProperties', `Additional properties are not allowed (${extras.map((e) => pyRepr(e)).join(', ')} ` +
        `${extras.length === 1 ? 'was' : 'were'} unexpected)`, s, v)];
    }
    case 'items':
      if (!Array.isArray(v)) return [];
      return v.flatMap((item, i) => under(iterPathErrors(item, s.items as Schema), i, ['items']));
    case 'enum':
      return (s.enum ?? []).some((e) => JSON.stringify(e) === JSON.stringify(v)) ? []
        : [make('enum', `${pyRepr(v)} is not one of ${pyRepr(s.enum)}`, s, v)];
    case 'pattern':
      return typeof v === 'string' && !new RegExp(s.pattern as string, 'u').test(v)
        ? [make('pattern', `${pyRepr(v)} does not match ${pyRepr(s.pattern)}`, s, v)] : [];
    case 'minLength':
      return typeof v === 'string' && [...v].length < (s.minLength as number) ? [make('minLength', `${pyRepr(v)} is too short`, s, v)] : [];
    case 'minimum':
      return typeof v === 'number' && v < (s.minimum as number)
        ? [make('minimum', `${pyRepr(v)} is less than the minimum of ${pyRepr(s.minimum)}`, s, v)] : [];
    case 'anyOf': {
      const context: PathError[] = [];
      for (const [i, sub] of (s.anyOf ?? []).entries()) {
        const errors = under(iterPathErrors(v, sub), null, [i]);
        if (errors.length === 0) return [];
        context.push(...errors);
      }
      return [make('anyOf', `${pyRepr(v)} is not valid under any of the given schemas`, s, v, context)];
    }
    default:
      return [];
  }
}

function iterPathErrors(v: unknown, s: Schema): PathError[] {
  return (Object.keys(s) as (keyof Schema)[]).flatMap((key) => keywordErrors(key, v, s));
}

function relevance(e: PathError): number[] {
  return [-e.path.length, e.keyword === 'anyOf' ? 0 : 1, matchesType(e) ? 0 : 1];
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

function bestMatch(errors: PathError[]): PathError | null {
  if (errors.length === 0) return null;
  let best = errors[0];
  for (const e of errors.slice(1)) if (compare(relevance(e), relevance(best)) > 0) best = e;
  while (best.context.length > 0) {
    const sorted = [...best.context].sort((a, b) => compare(relevance(a), relevance(b)));
    if (sorted.length >= 2 && compare(relevance(sorted[0]), relevance(sorted[1])) === 0) return best;
    best = sorted[0];
  }
  return best;
}

/** pprint.pformat(value, width=72) for JSON-like values: dict keys sorted, one item per line when too wide. */
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

function sortedCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedCopy);
  if (isObject(value)) {
    const out = emptyDict<unknown>();
    for (const k of Object.keys(value).sort()) out[k] = sortedCopy(value[k]);
    return out;
  }
  return value;
}

function indexPath(word: string, parts: (string | number)[]): string {
  return word + parts.map((p) => `[${pyRepr(p)}]`).join('');
}

function indented(text: string): string {
  return text.split('\n').map((line, i) => (i === 0 ? line : `    ${line}`)).join('\n');
}

/** str() of the error jsonschema.validate would raise for `value`, or null when it is valid. */
export function validationErrorText(value: unknown, schema: Schema): string | null {
  const e = bestMatch(iterPathErrors(value, schema));
  if (!e) return null;
  const schemaPath = indexPath('schema', e.schemaPath.slice(0, -1));
  const instancePath = indexPath('instance', e.path);
  const text = `${e.message}\n\nFailed validating ${pyRepr(e.keyword)} in ${schemaPath}:\n    ${indented(pformat(e.schema))}` +
    `\n\nOn ${instancePath}:\n    ${indented(pformat(e.instance))}`;
  // Ironic's hook strips trailing whitespace from faultstrings.
  return text.replace(/\s+$/, '');
}
