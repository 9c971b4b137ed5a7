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

/**
 * How a stored value at `path` of the document is shown in a message: stored secrets must be
 * masked as the resource's views mask them. `root` is the document as the failing op found it.
 */
type EchoMask = (path: readonly string[], value: Json, root: Json) => Json;

const maskByKey: EchoMask = (path, value) => maskForEcho(value, path.length > 0 ? path[path.length - 1] : undefined);

class Conflict extends Error {}

/** A missing member: the message shows its container, masked by the caller's EchoMask. */
class MissingMember extends Error {
  constructor(readonly part: string, readonly at: readonly string[], readonly container: Json) {
    super(`member '${part}' not found`);
  }
}

/** A failed `test`: the message shows the stored value, masked by the caller's EchoMask. */
class TestMismatch extends Error {
  constructor(readonly at: readonly string[], readonly actual: Json, readonly expected: Json) {
    super('test failed');
  }
}

function decodePointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw new Conflict(`Location must start with /`);
  return path.slice(1).split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Refuses `add` of a root attribute the document lacks, then applies each op, naming the failing one. */
export function applyJsonPatch<T extends Record<string, Json>>(doc: T, patch: PatchOp[], echo: EchoMask = maskByKey): T {
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
      const reason = failureReason(err, echo, current);
      if (reason !== null) throw new PatchError({ patch: pyRepr(op), reason });
      throw err;
    }
  }
  refuseDeeperResult(doc, current);
  return current as T;
}

/** python-jsonpatch's wording of a failed op; null for errors that are not the patch's fault. */
function failureReason(err: unknown, echo: EchoMask, root: Json): string | null {
  if (err instanceof MissingMember) return `member '${err.part}' not found in ${pyRepr(echo(err.at, err.container, root))}`;
  if (err instanceof TestMismatch) {
    const shown = pyRepr(echo(err.at, err.actual, root));
    return `${shown} (${pyType(err.actual)}) is not equal to tested value ${pyRepr(err.expected)} (${pyType(err.expected)})`;
  }
  return err instanceof Conflict ? err.message : null;
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
      if (JSON.stringify(actual) !== JSON.stringify(op.value)) throw new TestMismatch(parts, actual, op.value);
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
  for (let i = 0; i < parts.length - 1; i++) node = child(node, parts, i);
  if (node === null || typeof node !== 'object') {
    throw new Conflict(`unable to fully resolve json pointer /${parts.join('/')}, part ${parts[parts.length - 2] ?? ''}`);
  }
  return node as Container;
}

/** The member `parts[i]` of `node`, which sits at `parts[0..i)` in the document. */
function child(node: Json, parts: readonly string[], i: number): Json {
  const part = parts[i];
  if (Array.isArray(node)) {
    const index = listIndex(part, node.length - 1);
    return node[index];
  }
  if (node !== null && typeof node === 'object' && Object.hasOwn(node, part)) return (node as Record<string, Json>)[part];
  throw new MissingMember(part, parts.slice(0, i), node);
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
  for (let i = 0; i < parts.length; i++) node = child(node, parts, i);
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
