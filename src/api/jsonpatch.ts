/**
 * RFC 6902 JSON Patch applied one operation at a time, as Ironic's apply_jsonpatch does, with the
 * python-jsonpatch wording in its PatchError reasons so clients see Ironic's messages.
 */
import { InvalidParameterValue, PatchError } from '../common/errors';
import { maskForEcho } from '../common/mask';
import { pyRepr } from '../common/python/repr';
import { jsonDepth, MAX_JSON_DEPTH } from '../common/json-limits';

export interface PatchOp {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  value?: unknown;
  from?: string;
}

type Json = unknown;
type Container = Record<string, Json> | Json[];

class Conflict extends Error {}

export function decodePointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw new Conflict(`Location must start with /`);
  return path.slice(1).split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Refuses `add` of a root attribute the document lacks, then applies each op, naming the failing one. */
export function applyJsonPatch<T extends Record<string, Json>>(doc: T, patch: PatchOp[]): T {
  for (const p of patch) {
    if (p.op === 'add' && (p.path.match(/\//g) ?? []).length === 1 && !Object.hasOwn(doc, p.path.replace(/^\/+/, ''))) {
      throw new InvalidParameterValue(`Adding a new attribute (${p.path}) to the root of the resource is not allowed`);
    }
  }
  let current: Json = structuredClone(doc);
  for (const op of patch) {
    try {
      current = applyOne(current, op);
    } catch (err) {
      if (err instanceof Conflict) throw new PatchError({ patch: pyRepr(op), reason: err.message });
      throw err;
    }
  }
  refuseDeeperResult(doc, current);
  return current as T;
}

/**
 * Each op's value passed the body's depth limit, but ops can stack values (or copies) deeper. A
 * document already deeper (stored by another Ironic) may be patched as long as it grows no deeper.
 */
function refuseDeeperResult(before: Json, after: Json): void {
  const depth = jsonDepth(after);
  if (depth > MAX_JSON_DEPTH && depth > jsonDepth(before)) {
    throw new InvalidParameterValue(`The patched resource would nest deeper than ${MAX_JSON_DEPTH} levels of JSON.`);
  }
}

function applyOne(doc: Json, op: PatchOp): Json {
  if ((op.op === 'add' || op.op === 'replace' || op.op === 'test') && !('value' in op)) {
    throw new Conflict("The operation does not contain a 'value' member");
  }
  switch (op.op) {
    case 'add':
      return add(doc, decodePointer(op.path), structuredClone(op.value));
    case 'remove':
      return remove(doc, decodePointer(op.path));
    case 'replace':
      return replace(doc, decodePointer(op.path), structuredClone(op.value));
    case 'move': {
      const from = decodePointer(op.from ?? '');
      const to = decodePointer(op.path);
      if (to.length > from.length && from.every((p, i) => p === to[i])) throw new Conflict('Cannot move values into their own children');
      const value = get(doc, from);
      return add(remove(doc, from), to, value);
    }
    case 'copy':
      return add(doc, decodePointer(op.path), structuredClone(get(doc, decodePointer(op.from ?? ''))));
    case 'test': {
      const parts = decodePointer(op.path);
      const actual = get(doc, parts);
      if (JSON.stringify(actual) !== JSON.stringify(op.value)) {
        const shown = pyRepr(maskForEcho(actual, parts[parts.length - 1]));
        throw new Conflict(`${shown} (${pyType(actual)}) is not equal to tested value ${pyRepr(op.value)} (${pyType(op.value)})`);
      }
      return doc;
    }
    default:
      throw new Conflict(`Unknown operation ${pyRepr((op as { op: unknown }).op)}`);
  }
}

function pyType(v: Json): string {
  if (v === null || v === undefined) return "<class 'NoneType'>";
  if (typeof v === 'boolean') return "<class 'bool'>";
  if (typeof v === 'number') return Number.isInteger(v) ? "<class 'int'>" : "<class 'float'>";
  if (typeof v === 'string') return "<class 'str'>";
  return Array.isArray(v) ? "<class 'list'>" : "<class 'dict'>";
}

function parentOf(doc: Json, parts: string[]): Container {
  let node: Json = doc;
  for (const part of parts.slice(0, -1)) node = child(node, part);
  if (node === null || typeof node !== 'object') {
    throw new Conflict(`unable to fully resolve json pointer /${parts.join('/')}, part ${parts[parts.length - 2] ?? ''}`);
  }
  return node as Container;
}

function child(node: Json, part: string): Json {
  if (Array.isArray(node)) {
    const index = listIndex(part, node.length - 1);
    return node[index];
  }
  if (node !== null && typeof node === 'object' && Object.hasOwn(node, part)) return (node as Record<string, Json>)[part];
  // The document holds stored secrets (driver_info): echoed masked, as the views show it.
  throw new Conflict(`member '${part}' not found in ${pyRepr(maskForEcho(node))}`);
}

function listIndex(part: string, max: number): number {
  if (!/^(0|[1-9]\d*)$/.test(part)) throw new Conflict(`'${part}' is not a valid sequence index`);
  const index = Number(part);
  if (index > max) throw new Conflict(`index '${index}' is out of bounds`);
  return index;
}

/**
 * Sets a member as an own data property: `parent['__proto__'] = v` would replace the object's
 * prototype instead, where Python's dict simply gains a key named `__proto__`.
 */
function setMember(parent: Record<string, Json>, key: string, value: Json): void {
  Object.defineProperty(parent, key, { value, writable: true, enumerable: true, configurable: true });
}

function get(doc: Json, parts: string[]): Json {
  let node = doc;
  for (const part of parts) node = child(node, part);
  return node;
}

function add(doc: Json, parts: string[], value: Json): Json {
  if (parts.length === 0) return value;
  const parent = parentOf(doc, parts);
  const last = parts[parts.length - 1];
  if (Array.isArray(parent)) {
    if (last === '-') parent.push(value);
    else {
      if (!/^(0|[1-9]\d*)$/.test(last)) throw new Conflict(`'${last}' is not a valid sequence index`);
      if (Number(last) > parent.length) throw new Conflict("can't insert outside of list");
      parent.splice(Number(last), 0, value);
    }
  } else {
    setMember(parent, last, value);
  }
  return doc;
}

function remove(doc: Json, parts: string[]): Json {
  const parent = parentOf(doc, parts);
  const last = parts[parts.length - 1];
  if (Array.isArray(parent)) {
    parent.splice(listIndex(last, parent.length - 1), 1);
  } else {
    if (!Object.hasOwn(parent, last)) throw new Conflict(`can't remove a non-existent object '${last}'`);
    delete parent[last];
  }
  return doc;
}

function replace(doc: Json, parts: string[], value: Json): Json {
  if (parts.length === 0) return value;
  const parent = parentOf(doc, parts);
  const last = parts[parts.length - 1];
  if (Array.isArray(parent)) {
    if (!/^(0|[1-9]\d*)$/.test(last) || Number(last) >= parent.length) throw new Conflict("can't replace outside of list");
    parent[Number(last)] = value;
  } else {
    if (!Object.hasOwn(parent, last)) throw new Conflict(`can't replace a non-existent object '${last}'`);
    setMember(parent, last, value);
  }
  return doc;
}
