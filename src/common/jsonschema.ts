/**
 * The subset of JSON Schema (draft 4) Ironic's schemas use (API requests, RAID configs), reporting the
 * error python-jsonschema 4.10 would pick (best_match relevance) with its exact message, so clients see
 * Ironic's faultstrings; and str() of that error, for the few node messages Ironic formats with it whole.
 */
import { pformat } from './python/pformat';
import { pyRepr } from './python/repr';

type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null';

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
  /** Annotation only. */
  title?: string;
  /** Not JSON Schema: the first API minor version accepting this property (for api-ref generation). */
  minVersion?: number;
}

type PathPart = string | number;

interface SchemaError {
  message: string;
  keyword: string;
  /** Where the failing value sits below the validated instance (jsonschema's error.relative_path). */
  path: PathPart[];
  /** The keywords and indexes leading to the failing keyword (error.relative_schema_path). */
  schemaPath: PathPart[];
  /** The sub-schema whose keyword failed, and the value it failed on. */
  schema: Schema;
  instance: unknown;
  context: SchemaError[];
}

function isType(value: unknown, type: JsonType): boolean {
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

function err(value: unknown, schema: Schema, keyword: string, message: string, context: SchemaError[] = []): SchemaError {
  return { message, keyword, path: [], schemaPath: [keyword], schema, instance: value, context };
}

/** Paths are built on the way out (jsonschema's descend), so a valid value allocates none. */
function under(errors: SchemaError[], pathPart: PathPart | null, schemaParts: PathPart[]): SchemaError[] {
  for (const e of errors) {
    if (pathPart !== null) e.path.unshift(pathPart);
    e.schemaPath.unshift(...schemaParts);
  }
  return errors;
}

/** Every error, in python-jsonschema's iteration order (schema keyword order, then property order). */
export function iterErrors(value: unknown, schema: Schema): SchemaError[] {
  const out: SchemaError[] = [];
  for (const key of Object.keys(schema)) {
    out.push(...keywordErrors(key, value, schema));
  }
  return out;
}

function keywordErrors(key: string, value: unknown, schema: Schema): SchemaError[] {
  switch (key) {
    case 'type': return typeErrors(value, schema);
    case 'properties': return propertiesErrors(value, schema);
    case 'required': return requiredErrors(value, schema);
    case 'additionalProperties': return additionalErrors(value, schema);
    case 'items': return itemsErrors(value, schema);
    case 'enum':
      return schema.enum!.some((e) => JSON.stringify(e) === JSON.stringify(value)) ? []
        : [err(value, schema, 'enum', `${pyRepr(value)} is not one of ${pyRepr(schema.enum)}`)];
    case 'pattern':
      return typeof value === 'string' && !pyRegex(schema.pattern!).test(value)
        ? [err(value, schema, 'pattern', `${pyRepr(value)} does not match ${pyRepr(schema.pattern)}`)] : [];
    case 'minLength':
      return typeof value === 'string' && [...value].length < schema.minLength!
        ? [err(value, schema, 'minLength', `${pyRepr(value)} is too short`)] : [];
    case 'maxLength':
      return typeof value === 'string' && [...value].length > schema.maxLength!
        ? [err(value, schema, 'maxLength', `${pyRepr(value)} is too long`)] : [];
    case 'minItems':
      return Array.isArray(value) && value.length < schema.minItems!
        ? [err(value, schema, 'minItems', `${pyRepr(value)} is too short`)] : [];
    case 'minimum': return minimumErrors(value, schema);
    case 'dependencies': return dependenciesErrors(value, schema);
    case 'maximum':
      return typeof value === 'number' && value > schema.maximum!
        ? [err(value, schema, 'maximum', `${pyRepr(value)} is greater than the maximum of ${pyRepr(schema.maximum)}`)] : [];
    case 'anyOf': return anyOfErrors(value, schema);
    case 'oneOf': return oneOfErrors(value, schema);
    default: return [];
  }
}

function typeErrors(value: unknown, schema: Schema): SchemaError[] {
  if (matchesType(value, schema)) return [];
  const types = Array.isArray(schema.type) ? schema.type : [schema.type!];
  return [err(value, schema, 'type', `${pyRepr(value)} is not of type ${types.map((t) => pyRepr(t)).join(', ')}`)];
}

/** Draft 4's minimum, where the sibling exclusiveMinimum flag turns `<` into `<=`. */
function minimumErrors(value: unknown, schema: Schema): SchemaError[] {
  if (typeof value !== 'number') return [];
  const exclusive = schema.exclusiveMinimum === true;
  const failed = exclusive ? value <= schema.minimum! : value < schema.minimum!;
  if (!failed) return [];
  const cmp = exclusive ? 'less than or equal to' : 'less than';
  return [err(value, schema, 'minimum', `${pyRepr(value)} is ${cmp} the minimum of ${pyRepr(schema.minimum)}`)];
}

function dependenciesErrors(value: unknown, schema: Schema): SchemaError[] {
  if (!isObject(value)) return [];
  const out: SchemaError[] = [];
  for (const [name, needed] of Object.entries(schema.dependencies!)) {
    if (!Object.hasOwn(value, name)) continue;
    for (const each of needed) {
      if (!Object.hasOwn(value, each)) {
        out.push(err(value, schema, 'dependencies', `${pyRepr(each)} is a dependency of ${pyRepr(name)}`));
      }
    }
  }
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return isType(value, 'object');
}

function propertiesErrors(value: unknown, schema: Schema): SchemaError[] {
  if (!isObject(value)) return [];
  const out: SchemaError[] = [];
  for (const [name, sub] of Object.entries(schema.properties!)) {
    if (Object.hasOwn(value, name)) out.push(...under(iterErrors(value[name], sub), name, ['properties', name]));
  }
  return out;
}

function requiredErrors(value: unknown, schema: Schema): SchemaError[] {
  if (!isObject(value)) return [];
  return schema.required!.filter((name) => !Object.hasOwn(value, name))
    .map((name) => err(value, schema, 'required', `${pyRepr(name)} is a required property`));
}

function additionalErrors(value: unknown, schema: Schema): SchemaError[] {
  if (!isObject(value) || schema.additionalProperties !== false) return [];
  const extras = Object.keys(value).filter((k) => !(schema.properties && Object.hasOwn(schema.properties, k))).sort();
  if (extras.length === 0) return [];
  const verb = extras.length === 1 ? 'was' : 'were';
  return [err(value, schema, 'additionalProperties',
    `Additional properties are not allowed (${extras.map((e) => pyRepr(e)).join(', ')} ${verb} unexpected)`)];
}

function itemsErrors(value: unknown, schema: Schema): SchemaError[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item, i) => under(iterErrors(item, schema.items!), i, ['items']));
}

function anyOfErrors(value: unknown, schema: Schema): SchemaError[] {
  const context: SchemaError[] = [];
  for (const [i, sub] of schema.anyOf!.entries()) {
    const errors = under(iterErrors(value, sub), null, [i]);
    if (errors.length === 0) return [];
    context.push(...errors);
  }
  return [err(value, schema, 'anyOf', `${pyRepr(value)} is not valid under any of the given schemas`, context)];
}

/** oneOf: none valid gives anyOf's message with every branch's errors; more than one valid is an error too. */
function oneOfErrors(value: unknown, schema: Schema): SchemaError[] {
  const context: SchemaError[] = [];
  const branches = schema.oneOf!;
  const first = branches.findIndex((sub, i) => {
    const errors = under(iterErrors(value, sub), null, [i]);
    context.push(...errors);
    return errors.length === 0;
  });
  if (first < 0) {
    return [err(value, schema, 'oneOf', `${pyRepr(value)} is not valid under any of the given schemas`, context)];
  }
  const alsoValid = branches.slice(first + 1).filter((sub) => iterErrors(value, sub).length === 0);
  if (alsoValid.length === 0) return [];
  const reprs = [...alsoValid, branches[first]].map((sub) => pyRepr(sub)).join(', ');
  return [err(value, schema, 'oneOf', `${pyRepr(value)} is valid under each of ${reprs}`)];
}

type Key = [number, number, number];

/** jsonschema's by_relevance: shallower errors first, anyOf/oneOf (the weak matches) below the rest. */
function relevance(e: SchemaError): Key {
  const weak = e.keyword === 'anyOf' || e.keyword === 'oneOf' ? 0 : 1;
  return [-e.path.length, weak, matchesType(e.instance, e.schema) ? 0 : 1];
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

function indexPath(word: string, parts: PathPart[]): string {
  return word + parts.map((p) => `[${pyRepr(p)}]`).join('');
}

function indented(text: string): string {
  return text.split('\n').map((line, i) => (i === 0 ? line : `    ${line}`)).join('\n');
}

/**
 * str() of the error jsonschema.validate would raise for `value`, or null when it is valid: the
 * message, the failing keyword and schema path, the failing sub-schema and instance pretty-printed
 * ("Invalid clean_steps: %s", "Invalid configdrive format: %s").
 */
export function validationErrorText(value: unknown, schema: Schema): string | null {
  const e = bestMatch(iterErrors(value, schema));
  if (!e) return null;
  const schemaPath = indexPath('schema', e.schemaPath.slice(0, -1));
  const instancePath = indexPath('instance', e.path);
  const text = `${e.message}\n\nFailed validating ${pyRepr(e.keyword)} in ${schemaPath}:\n    ${indented(pformat(e.schema))}` +
    `\n\nOn ${instancePath}:\n    ${indented(pformat(e.instance))}`;
  // Ironic's hook strips trailing whitespace from faultstrings.
  return text.replace(/\s+$/, '');
}
