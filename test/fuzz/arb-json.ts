/** Random JSON trees (see json-text.ts): odd numbers, hostile keys, deep nesting. */
import fc from 'fast-check';
import { HOSTILE_KEYS, identString, oddString } from './arb-strings';
import { JsonNode, num, obj } from './json-text';
import { Style, weight } from './style';

const ODD_NUMBERS = ['0', '-0', '0.0', '-0.0', '1E2', '1e-7', '0.1e1', '1e308', '-1e308', '1e400', '-1e400', '1e-400',
  '4.9e-324', '9007199254740991', '9007199254740993', '-9007199254740993', '18446744073709551616',
  '123456789012345678901234567890', '0.30000000000000004', '2147483648', '-2147483649', '1.0', '100000000000000000000'];

export function jsonNumber(): fc.Arbitrary<JsonNode> {
  return fc.oneof(
    fc.integer().map((n) => num(String(n))),
    fc.integer({ min: -3, max: 1000 }).map((n) => num(String(n))),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => num(JSON.stringify(d))),
    fc.constantFrom(...ODD_NUMBERS).map(num),
  );
}

export function jsonLeaf(real: readonly string[], style: Style): fc.Arbitrary<JsonNode> {
  return fc.oneof(
    fc.constant(null),
    fc.boolean(),
    jsonNumber(),
    { arbitrary: identString(real, style), weight: 3 },
  );
}

/** Object keys: mostly the vocabulary given (real field names), else hostile or random. */
export function jsonKey(vocabulary: readonly string[], style: Style): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.constantFrom(...vocabulary), weight: weight(style, 20, 4) },
    { arbitrary: fc.constantFrom(...HOSTILE_KEYS), weight: 2 },
    { arbitrary: oddString(), weight: 2 },
  );
}

export function jsonTree(vocabulary: readonly string[], real: readonly string[], style: Style, maxDepth = 4): fc.Arbitrary<JsonNode> {
  const { tree } = fc.letrec<{ tree: JsonNode }>((tie) => ({
    tree: fc.oneof(
      { maxDepth, depthIdentifier: 'json-tree' },
      { arbitrary: jsonLeaf(real, style), weight: 3 },
      fc.array(tie('tree'), { maxLength: 4 }),
      fc.array(fc.tuple(jsonKey(vocabulary, style), tie('tree')), { maxLength: 5 }).map(obj),
    ),
  }));
  return tree;
}

/** A value wrapped in 20 to 130 arrays or objects: around the server's nesting limit of 100. */
export function deepNest(vocabulary: readonly string[]): fc.Arbitrary<JsonNode> {
  const shape = fc.oneof(fc.constant('[]'), jsonKey(vocabulary, 'hostile'));
  return fc.tuple(fc.integer({ min: 20, max: 130 }), fc.array(shape, { minLength: 1, maxLength: 4 }), jsonLeaf([], 'hostile'))
    .map(([depth, shapes, leaf]) => {
      let node = leaf;
      for (let i = 0; i < depth; i++) {
        const s = shapes[i % shapes.length];
        node = s === '[]' ? [node] : obj([[s, node]]);
      }
      return node;
    });
}
