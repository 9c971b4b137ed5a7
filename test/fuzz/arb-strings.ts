/**
 * Strings for every slot the fuzzer fills: plain, unicode, hostile object keys, UUID-like, long,
 * and real identifiers. None can hold the secrets' mark (a 12-character alphanumeric run no
 * constant here has and random strings of these lengths essentially never produce; a request
 * that does carry it is not checked for leaks, see secrets.ts).
 */
import fc from 'fast-check';
import { Style, weight } from './style';

/** Keys that mean something on a JS object: each must stay a plain key on the server. */
export const HOSTILE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf',
  '__defineGetter__', '__lookupGetter__', 'isPrototypeOf', 'propertyIsEnumerable', 'toJSON', 'then', 'length'];

const ODD_STRINGS = ['', ' ', '  x  ', 'null', 'None', 'True', 'true', 'false', 'False', '0', '-1', '1.5', 'NaN',
  'Infinity', '-Infinity', '1e400', "'", '"', '\\', '\\u0000', '%s', '%(name)s', '{0}', '${x}', '{{7*7}}', '../../etc/passwd',
  '\u0000', '\u0000abc', '\t\n\r', '\u202e', '\ufeff', 'ǅ', 'İı', 'ß', '\u00e9', 'e\u0301', '日本語', '😀', '\ud83d', '\udc00x',
  '<script>', 'a,b,c', ',', ';', '=', '&', '?', '#', '/', '//', '~0', '~1', '-', '*', 'CUSTOM_', 'latest', 'detail',
  'x'.repeat(256), 'y'.repeat(4097)];

const LOWER = [...'abcdefghijklmnopqrstuvwxyz'];
/** Characters of names and tokens (RFC 3986 unreserved). */
export const NAME_CHARS = [...LOWER, ...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._~-'];

export const hostileKey = (): fc.Arbitrary<string> => fc.constantFrom(...HOSTILE_KEYS);

/** A string a human would not type: odd constants, unicode, control characters, lone surrogates. */
export function oddString(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...ODD_STRINGS),
    fc.string({ maxLength: 24 }),
    fc.string({ unit: 'grapheme', maxLength: 12 }),
    fc.string({ unit: 'binary', maxLength: 12 }),
    fc.string({ unit: fc.constantFrom('\ud800', '\udfff', '\u0000', '\u00ff', 'a'), maxLength: 6 }),
  );
}

/** A name as people give them: a letter, then unreserved characters. */
export function plainName(): fc.Arbitrary<string> {
  return fc.tuple(fc.constantFrom(...LOWER), fc.string({ unit: fc.constantFrom(...NAME_CHARS), maxLength: 30 })).map(([a, b]) => a + b);
}

export function uuidLike(): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.uuid(), weight: 4 },
    fc.uuid().map((u) => u.toUpperCase()),
    fc.uuid().map((u) => u.replace(/-/g, '')),
    fc.uuid().map((u) => `{${u}}`),
    fc.uuid().map((u) => `urn:uuid:${u}`),
    fc.uuid().map((u) => u.slice(0, 35)),
    fc.uuid().map((u) => `${u}x`),
    fc.constant('00000000-0000-0000-0000-000000000000'),
  );
}

export function macLike(style: Style): fc.Arbitrary<string> {
  const octet = fc.integer({ min: 0, max: 255 }).map((n) => n.toString(16).padStart(2, '0'));
  return fc.oneof(
    { arbitrary: fc.array(octet, { minLength: 6, maxLength: 6 }).map((o) => o.join(':')), weight: weight(style, 12, 2) },
    fc.array(octet, { minLength: 1, maxLength: 9 }).map((o) => o.join(':').toUpperCase()),
    fc.array(octet, { minLength: 6, maxLength: 6 }).map((o) => o.join('-')),
  );
}

/** Any identifier-ish string: the real ones given, hostile keys, UUID-like, odd and long. */
export function identString(real: readonly string[], style: Style): fc.Arbitrary<string> {
  const arbs: Array<fc.WeightedArbitrary<string>> = [
    { arbitrary: hostileKey(), weight: 2 },
    { arbitrary: uuidLike(), weight: 2 },
    { arbitrary: oddString(), weight: weight(style, 1, 3) },
    { arbitrary: plainName(), weight: 2 },
    { arbitrary: fc.string({ minLength: 300, maxLength: 3000 }), weight: weight(style, 0, 1) },
  ];
  if (real.length > 0) arbs.push({ arbitrary: fc.constantFrom(...real), weight: weight(style, 40, 6) });
  return fc.oneof(...arbs.filter((a) => a.weight > 0));
}

/** Header values node can send: tab, printable ASCII and Latin-1 bytes, no CR or LF. */
export function headerValue(): fc.Arbitrary<string> {
  const unit = fc.oneof(
    { arbitrary: fc.integer({ min: 0x20, max: 0x7e }), weight: 8 },
    { arbitrary: fc.integer({ min: 0x80, max: 0xff }), weight: 1 },
    { arbitrary: fc.constant(0x09), weight: 1 },
  ).map((c) => String.fromCharCode(c));
  return fc.string({ unit, maxLength: 40 });
}
