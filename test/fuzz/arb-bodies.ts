/**
 * Request bodies: objects over a resource's real fields, JSON patches with hostile paths, random
 * and deeply nested JSON, text that is not JSON, bytes that are not UTF-8, and nothing at all.
 */
import fc from 'fast-check';
import type { FuzzFixtures } from './fixtures';
import { HOSTILE_KEYS, oddString } from './arb-strings';
import { deepNest, jsonTree } from './arb-json';
import { BodyKind, fieldsOf, INNER_KEYS, REQUIRED } from './arb-fields';
import { fieldValue } from './arb-values';
import { JsonNode, obj, toJsonText } from './json-text';
import { Style, weight } from './style';

/** Field arbitraries of one body kind, built once per field: building them is the costly part. */
class FieldArbs {
  private readonly cache = new Map<string, fc.Arbitrary<[string, JsonNode]>>();
  constructor(private readonly kind: BodyKind, private readonly fx: FuzzFixtures, readonly style: Style) {}

  entry(field: string): fc.Arbitrary<[string, JsonNode]> {
    let arb = this.cache.get(field);
    if (!arb) {
      arb = fieldValue(this.kind, field, this.fx, this.style).map((v): [string, JsonNode] => [field, v]);
      this.cache.set(field, arb);
    }
    return arb;
  }

  anyEntry(fields: readonly string[]): fc.Arbitrary<[string, JsonNode]> {
    return fc.constantFrom(...fields).chain((f) => this.entry(f));
  }
}

function objectBody(kind: BodyKind, arbs: FieldArbs): fc.Arbitrary<JsonNode> {
  const fields = fieldsOf(kind, arbs.style);
  const required = (REQUIRED.get(kind) ?? []).map((f) => fc.option(arbs.entry(f), { freq: weight(arbs.style, 30, 6) }));
  const anyField = fc.oneof(
    { arbitrary: arbs.anyEntry(fields), weight: weight(arbs.style, 30, 6) },
    { arbitrary: fc.tuple(fc.constantFrom(...HOSTILE_KEYS), jsonTree(INNER_KEYS, [], arbs.style, 2)), weight: 1 },
    { arbitrary: fc.tuple(oddString(), jsonTree(INNER_KEYS, [], arbs.style, 1)), weight: 1 },
  );
  return fc.tuple(fc.tuple(...required), fc.array(anyField, { maxLength: weight(arbs.style, 2, 5) }))
    .map(([req, more]) => obj([...req.filter((e): e is [string, JsonNode] => e !== null), ...more]));
}

const OPS = ['add', 'remove', 'replace', 'move', 'copy', 'test'];
const ODD_POINTERS = ['', '/', '//', 'extra', '/extra/', '/extra/~2', '/extra/a~', '/driver_info/a/b', '/extra/__proto__/polluted',
  '/extra/constructor/prototype/polluted', '/properties/-', '/traits/0', '/extra/list/-', '/extra/list/99', '/extra/list/01'];

/** A JSON pointer: a real field, then keys inside dicts, escaped as RFC 6901 says or not. */
function pointer(fields: readonly string[], style: Style): fc.Arbitrary<string> {
  const first = fc.oneof({ arbitrary: fc.constantFrom(...fields), weight: weight(style, 30, 6) }, fc.constantFrom(...HOSTILE_KEYS), oddString());
  const inner = fc.oneof({ arbitrary: fc.constantFrom(...INNER_KEYS), weight: weight(style, 20, 4) }, fc.constantFrom(...HOSTILE_KEYS), oddString());
  const segments = fc.tuple(first, fc.array(inner, { maxLength: weight(style, 2, 4) }), fc.boolean()).map(([f, rest, escape]) =>
    [f, ...rest].map((s) => (escape ? s.replace(/~/g, '~0').replace(/\//g, '~1') : s)));
  return fc.oneof({ arbitrary: segments.map((s) => `/${s.join('/')}`), weight: weight(style, 30, 8) }, fc.constantFrom(...ODD_POINTERS));
}

function patchOp(fields: readonly string[], arbs: FieldArbs): fc.Arbitrary<JsonNode> {
  // Ironic's patch schema takes add, replace and remove only: the others are refused, so rarer.
  const op = fc.oneof({ arbitrary: fc.constantFrom('add', 'replace', 'remove'), weight: weight(arbs.style, 30, 6) },
    { arbitrary: fc.constantFrom(...OPS), weight: weight(arbs.style, 3, 4) }, oddString());
  const value = fc.oneof({ arbitrary: arbs.anyEntry(fields).map(([, v]) => v), weight: weight(arbs.style, 6, 1) },
    jsonTree(INNER_KEYS, [], arbs.style, 3));
  const shapes = weight(arbs.style, 60, 20);
  return fc.tuple(op, pointer(fields, arbs.style), value, pointer(fields, arbs.style), fc.nat(shapes)).map(([o, path, v, from, shape]) => {
    const entries: Array<[string, JsonNode]> = [['op', o], ['path', path]];
    // Mostly the members the op needs; now and then one missing, one extra, or a non-string op.
    if (shape === 15) entries.push(['value', v], ['from', from]);
    else if (shape === 16) entries.shift();
    else if (shape === 17) entries.splice(1, 1);
    else if (shape === 18) entries[0] = ['op', v];
    else if (shape === 19) entries.push(['__proto__', obj([['polluted', 'yes']])]);
    else if (o === 'move' || o === 'copy') entries.push(['from', from]);
    else if (o !== 'remove') entries.push(['value', v]);
    return obj(entries);
  });
}

function patchBody(kind: BodyKind, arbs: FieldArbs): fc.Arbitrary<JsonNode> {
  const fields = fieldsOf(kind, arbs.style);
  return fc.oneof(
    { arbitrary: fc.array(patchOp(fields, arbs), { minLength: 1, maxLength: weight(arbs.style, 2, 4) }), weight: 8 },
    { arbitrary: fc.constant<JsonNode>([]), weight: 1 },
    { arbitrary: patchOp(fields, arbs), weight: weight(arbs.style, 0, 1) },
  );
}

/** Whole bodies of the wrong JSON type: a handler reading members of `null` or `[]` must refuse them. */
const WRONG_ROOTS = ['null', '[]', '{}', '""', '"x"', '0', '-1', 'true', 'false', '[null]', '[{}]', '[[]]', '{"a": null}'];

const RAW_TEXTS = ['abc', '{', '[1,]', "{'a': 1}", 'NaN', '{"a": NaN}', '{"a": Infinity}', 'null', '""', '[]', '{}', 'true', '  ',
  '\ufeff{}', '{"a":1}garbage', '{"a":1}{"b":2}', '{"a":1,"a":2}', '{"__proto__": {"polluted": "yes"}}',
  '{"constructor": {"prototype": {"polluted": "yes"}}}', '[{"op": "add", "path": "/extra/__proto__/polluted", "value": "yes"}]',
  '{"target": "active", "__proto__": {"polluted": "yes"}}', '{"\\u0000": 1}', '"\\ud800"', 'a=b&c=d', '<xml/>', '1e999',
  '{"a": 1e999}', '{"a": -}', '['.repeat(200), '{"a":'.repeat(150)];

function rawBody(): fc.Arbitrary<Buffer> {
  return fc.oneof(
    fc.constantFrom(...RAW_TEXTS).map((t) => Buffer.from(t)),
    fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b)),
    fc.constantFrom([0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xfe, 0x22, 0x7d])
      .map((b) => Buffer.from(b)),
    oddString().map((s) => Buffer.from(s)),
  );
}

export type BodyMode = 'none' | 'object' | 'patch' | 'any';

/** Weights of [no body, object, patch, random JSON, deep JSON, raw bytes, empty, wrong root] by mode and style. */
function shapeWeights(mode: BodyMode, style: Style): number[] {
  const plausible = style === 'plausible';
  switch (mode) {
    case 'none': return plausible ? [60, 0, 0, 1, 0, 0, 1, 0] : [30, 1, 1, 2, 1, 2, 1, 1];
    case 'object': return plausible ? [2, 40, 0, 1, 0, 0, 1, 1] : [3, 20, 5, 6, 3, 6, 1, 4];
    case 'patch': return plausible ? [1, 0, 40, 1, 0, 0, 1, 1] : [3, 5, 20, 6, 3, 6, 1, 4];
    case 'any': return plausible ? [6, 20, 6, 6, 0, 0, 1, 1] : [3, 10, 6, 6, 3, 6, 1, 4];
  }
}

/** A body for a route: its kind decides the fields, its mode and style how likely each shape is. */
export function bodyArb(kind: BodyKind, mode: BodyMode, fx: FuzzFixtures, style: Style): fc.Arbitrary<Buffer | null> {
  const arbs = new FieldArbs(kind, fx, style);
  const json = (node: fc.Arbitrary<JsonNode>): fc.Arbitrary<Buffer> => node.map((n) => Buffer.from(toJsonText(n)));
  const shapes: Array<() => fc.Arbitrary<Buffer | null>> = [
    () => fc.constant(null),
    () => json(objectBody(kind, arbs)),
    () => json(patchBody(kind, arbs)),
    () => json(jsonTree(fieldsOf(kind, style), [], style, 4)),
    () => json(deepNest(fieldsOf(kind, style))),
    () => rawBody(),
    () => fc.constant(Buffer.alloc(0)),
    () => fc.constantFrom(...WRONG_ROOTS).map((t) => Buffer.from(t)),
  ];
  const w = shapeWeights(mode, style);
  const options = shapes.map((make, i) => ({ make, weight: w[i] })).filter((o) => o.weight > 0);
  return fc.oneof(...options.map((o) => ({ arbitrary: o.make(), weight: o.weight })));
}
