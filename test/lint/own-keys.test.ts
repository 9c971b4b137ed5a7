/**
 * Lint: request-controlled keys must never reach the prototype chain (issue 19, finding 1).
 * - The `in` operator follows the prototype chain (`'__proto__' in {}` is true), so in `src/` its
 *   left operand must be a literal: a variable key uses `Object.hasOwn`.
 * - A constant string-keyed table (`const X_Y: Record<string, …> = …`) is looked up by keys that may
 *   come from a request (verbs, sort keys, field names), so it is built by `lookupTable`, which
 *   gives it no prototype: `X['constructor']` is `undefined`, not `Object`.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { codeOnly, lineAt, tsFiles } from './source-text';

const ROOT = path.resolve(__dirname, '..', '..', '..');

/** `<operand> in <expr>` outside `for (… in …)`, with the operand that precedes `in`. */
const IN_OPERATOR = /([\w$.)\]"]+)\s+in\s+(?=[\w$(!{[])/g;
const FOR_IN = /for\s*\(\s*(?:const|let|var)\s+[\w$]+\s*$/;
/** `{ [K in keyof T]: … }`: a type, not the operator. */
const MAPPED_TYPE = /\[\s*$/;
const LITERAL_OPERAND = /^(?:"S"|\d+|Symbol\.\w+)$/;

const RECORD_TABLE = /(?:^|\n)\s*(?:export\s+)?const\s+([A-Z][A-Z0-9_]*)\s*:\s*(?:Readonly<\s*)?Record<\s*string\s*,[^;]*?\s=\s(?!\s*lookupTable\()/g;

function sources(): { file: string; code: string }[] {
  return tsFiles(ROOT, 'src').map((file) => ({ file, code: codeOnly(fs.readFileSync(path.join(ROOT, file), 'utf8')) }));
}

export function inOperatorViolations(file: string, code: string): string[] {
  const out: string[] = [];
  for (const m of code.matchAll(IN_OPERATOR)) {
    const before = code.slice(0, m.index + m[1].length);
    if (FOR_IN.test(before) || MAPPED_TYPE.test(code.slice(0, m.index))) continue;
    if (LITERAL_OPERAND.test(m[1])) continue;
    out.push(`${file}:${lineAt(code, m.index)}: \`${m[1]} in …\` (use Object.hasOwn)`);
  }
  return out;
}

export function tableViolations(file: string, code: string): string[] {
  return [...code.matchAll(RECORD_TABLE)].map((m) =>
    `${file}:${lineAt(code, m.index + m[0].indexOf('const'))}: table ${m[1]} is not built by lookupTable`);
}

test('src/ uses the in operator only with literal keys', () => {
  const violations = sources().flatMap(({ file, code }) => inOperatorViolations(file, code));
  assert.deepEqual(violations, []);
});

test('src/ builds constant string-keyed tables with lookupTable (no prototype)', () => {
  const violations = sources().flatMap(({ file, code }) => tableViolations(file, code));
  assert.deepEqual(violations, []);
});

test('the rules catch what they are meant to catch', () => {
  assert.equal(inOperatorViolations('x.ts', codeOnly('if (part in node) {}')).length, 1);
  assert.equal(inOperatorViolations('x.ts', codeOnly('const ok = !(spec.name in merged);')).length, 1);
  assert.equal(inOperatorViolations('x.ts', codeOnly("if ('value' in op) {}")).length, 0);
  assert.equal(inOperatorViolations('x.ts', codeOnly('for (const k in obj) {}')).length, 0);
  assert.equal(inOperatorViolations('x.ts', codeOnly('// key in doc\nconst s = "a in b";')).length, 0);
  assert.equal(tableViolations('x.ts', codeOnly('const T: Readonly<Record<string, string>> = { a: "b" };')).length, 1);
  assert.equal(tableViolations('x.ts', codeOnly('const T: Readonly<Record<string, string>> = lookupTable({ a: "b" });')).length, 0);
});
