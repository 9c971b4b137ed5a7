/**
 * The subset of JSON Schema (draft 4) Ironic's schemas use (API requests, RAID configs), reporting the
 * error python-jsonschema 4.10 would pick (best_match relevance) with its exact message, so clients see
 * Ironic's faultstrings.
 */
import { pyRepr } from './python/repr';

export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null';

export interface Schema {
  type?: JsonType | JsonType[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean;
  items?: Schema;
  enum?: unknown[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  /** Draft 4 form: makes `minimum` exclusive. */
  exclusiveMinimum?: boolean;
  maximum?: number;
  minItems?: number;
  anyOf?: Schema[];
  oneOf?: Schema[];
  /** Property dependencies, array form only: "if KEY is present, these must be too". */
  dependencies?: Record<string, string[]>;
  /** Annotation only (raid_config_schema.json carries one per property). */
  description?: string;
  /** Not JSON Schema: the first API minor version accepting this property (for api-ref generation). */
  minVersion?: number;
}

export interface SchemaError {
  message: string;
  /** Depth of the failing value below the validated instance (jsonschema's len(error.path)). */
  depth: number;
  keyword: string;
  /** Whether the instance has the type its failing schema asks for (jsonschema's _matches_type). */
  matchesType: boolean;
  context: SchemaError[];
}

export function isType(value: unknown, type: JsonType): boolean {
  switch (type) {
    case 'string': return typeof value === 'string';
    case 'integer': return typeof value === 'number' && Number.isInteger(value);
    case 'number': return typeof value === 'number';
    case 'boolean': return typeof value === 'boolean';
    case 'null': return value === null;
    case 'array': return Array.isArray(value);
    case 'object': return value !== null && typeof value === 'object' && !Array.isArray(value);
    default: return false;
  }
}

function matchesType(value: unknown, schema: Schema): boolean {
  if (schema.type === undefined) return false;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.some((t) => isType(value, t));
}

/** Python's `\w` is Unicode-aware; JS needs it spelled out (inside or outside a character class). */
function pyRegex(pattern: string): RegExp {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\' && pattern[i + 1] === 'w') {
      out += inClass ? '\\p{L}\\p{N}_' : '[\\p{L}\\p{N}_]';
      i++;
      continue;
    }
    if (c === '\\') {
      out += c + (pattern[i + 1] ?? '');
      i++;
      continue;
    }
    if (c === '[') inClass = true;
    if (c === ']') inClass = false;
    out += c;
  }
  return new RegExp(out, 'u');
}

function err(value: unknown, schema: Schema, keyword: string, message: string, depth = 0, context: SchemaError[] = []): SchemaError {
  return { message, depth, keyword, matchesType: matchesType(value, schema), context };
}

/** Every error, in python-jsonschema's iteration order (schema keyword order, then property order). */
export function iterErrors(value: unknown, schema: Schema, depth = 0): SchemaError[] {
  const out: SchemaError[] = [];
  for (const key of Object.keys(schema)) {
    out.push(...keywordErrors(key, value, schema, depth));
  }
  return out;
}

function keywordErrors(key: string, value: unknown, schema: Schema, depth: number): SchemaError[] {
  switch (key) {
    case 'type': return typeErrors(value, schema, depth);
    case 'properties': return propertiesErrors(value, schema, depth);
    case 'required': return requiredErrors(value, schema, depth);
    case 'additionalProperties': return additionalErrors(value, schema, depth);
    case 'items': return itemsErrors(value, schema, depth);
    case 'enum':
      return schema.enum!.some((e) => JSON.stringify(e) === JSON.stringify(value)) ? []
        : [err(value, schema, 'enum', `${pyRepr(value)} is not one of ${pyRepr(schema.enum)}`, depth)];
    case 'pattern':
      return typeof value === 'string' && !pyRegex(schema.pattern!).test(value)
        ? [err(value, schema, 'pattern', `${pyRepr(value)} does not match ${pyRepr(schema.pattern)}`, depth)] : [];
    case 'minLength':
      return typeof value === 'string' && [...value].length < schema.minLength!
        ? [err(value, schema, 'minLength', `${pyRepr(value)} is too short`, depth)] : [];
    case 'maxLength':
      return typeof value === 'string' && [...value].length > schema.maxLength!
        ? [err(value, schema, 'maxLength', `${pyRepr(value)} is too long`, depth)] : [];
    case 'minItems':
      return Array.isArray(value) && value.length < schema.minItems!
        ? [err(value, schema, 'minItems', `${pyRepr(value)} is too short`, depth)] : [];
    case 'minimum': return minimumErrors(value, schema, depth);
    case 'dependencies': return dependenciesErrors(value, schema, depth);
    case 'maximum':
      return typeof value === 'number' && value > schema.maximum!
        ? [err(value, schema, 'maximum', `${pyRepr(value)} is greater than the maximum of ${pyRepr(schema.maximum)}`, depth)] : [];
    case 'anyOf': return anyOfErrors(value, schema, depth);
    case 'oneOf': return oneOfErrors(value, schema, depth);
    default: return [];
  }
}

function typeErrors(value: unknown, schema: Schema, depth: number): SchemaError[] {
  if (matchesType(value, schema)) return [];
  const types = Array.isArray(schema.type) ? schema.type : [schema.type!];
  return [err(value, schema, 'type', `${pyRepr(value)} is not of type ${types.map((t) => pyRepr(t)).join(', ')}`, depth)];
}

/** Draft 4's minimum, where the sibling exclusiveMinimum flag turns `<` into `<=`. */
function minimumErrors(value: unknown, schema: Schema, depth: number): SchemaError[] {
  if (typeof value !== 'number') return [];
  const exclusive = schema.exclusiveMinimum === true;
  const failed = exclusive ? value <= schema.minimum! : value < schema.minimum!;
  if (!failed) return [];
  const cmp = exclusive ? 'less than or equal to' : 'less than';
  return [err(value, schema, 'minimum', `${pyRepr(value)} is ${cmp} the minimum of ${pyRepr(schema.minimum)}`, depth)];
}

function dependenciesErrors(value: unknown, schema: Schema, depth: number): SchemaError[] {
  if (!isObject(value)) return [];
  const out: SchemaError[] = [];
  for (const [name, needed] of Object.entries(schema.dependencies!)) {
    if (!Object.hasOwn(value, name)) continue;
    for (const each of needed) {
      if (!Object.hasOwn(value, each)) {
        out.push(err(value, schema, 'dependencies', `${pyRepr(each)} is a dependency of ${pyRepr(name)}`, depth));
      }
    }
  }
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return isType(value, 'object');
}

function propertiesErrors(value: unknown, schema: Schema, depth: number): SchemaError[] {
  if (!isObject(value)) return [];
  const out: SchemaError[] = [];
  for (const [name, sub] of Object.entries(schema.properties!)) {
    if (Object.hasOwn(value, name)) out.push(...iterErrors(value[name], sub, depth + 1));
  }
  return out;
}

function requiredErrors(value: unknown, schema: Schema, depth: number): SchemaError[] {
  if (!isObject(value)) return [];
  return schema.required!.filter((name) => !Object.hasOwn(value, name))
    .map((name) => err(value, schema, 'required', `${pyRepr(name)} is a required property`, depth));
}

function additionalErrors(value: unknown, schema: Schema, depth: number): SchemaError[] {
  if (!isObject(value) || schema.additionalProperties !== false) return [];
  const extras = Object.keys(value).filter((k) => !(schema.properties && Object.hasOwn(schema.properties, k))).sort();
  if (extras.length === 0) return [];
  const verb = extras.length === 1 ? 'was' : 'were';
  return [err(value, schema, 'additionalProperties',
    `Additional properties are not allowed (${extras.map((e) => pyRepr(e)).join(', ')} ${verb} unexpected)`, depth)];
}

function itemsErrors(value: unknown, schema: Schema, depth: number): SchemaError[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => iterErrors(item, schema.items!, depth + 1));
}

function anyOfErrors(value: unknown, schema: Schema, depth: number): SchemaError[] {
  const context: SchemaError[] = [];
  for (const sub of schema.anyOf!) {
    const errors = iterErrors(value, sub, 0);
    if (errors.length === 0) return [];
    context.push(...errors);
  }
  return [err(value, schema, 'anyOf', `${pyRepr(value)} is not valid under any of the given schemas`, depth, context)];
}

/** oneOf: none valid gives anyOf's message with every branch's errors; more than one valid is an error too. */
function oneOfErrors(value: unknown, schema: Schema, depth: number): SchemaError[] {
  const context: SchemaError[] = [];
  const branches = schema.oneOf!;
  const first = branches.findIndex((sub) => {
    const errors = iterErrors(value, sub, 0);
    context.push(...errors);
    return errors.length === 0;
  });
  if (first < 0) {
    return [err(value, schema, 'oneOf', `${pyRepr(value)} is not valid under any of the given schemas`, depth, context)];
  }
  const alsoValid = branches.slice(first + 1).filter((sub) => iterErrors(value, sub, 0).length === 0);
  if (alsoValid.length === 0) return [];
  const reprs = [...alsoValid, branches[first]].map((sub) => pyRepr(sub)).join(', ');
  return [err(value, schema, 'oneOf', `${pyRepr(value)} is valid under each of ${reprs}`, depth)];
}

type Key = [number, number, number];

/** jsonschema's by_relevance: shallower errors first, anyOf/oneOf (the weak matches) below the rest. */
function relevance(e: SchemaError): Key {
  const weak = e.keyword === 'anyOf' || e.keyword === 'oneOf' ? 0 : 1;
  return [-e.depth, weak, e.matchesType ? 0 : 1];
}

function compare(a: Key, b: Key): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** jsonschema.exceptions.best_match: the most relevant error, descending into anyOf context deepest-first. */
export function bestMatch(errors: SchemaError[]): SchemaError | null {
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
