import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { pyFloatText } from '../../../src/common/python/float';

/** Around both places where Python switches to exponent form, and the ordinary range between. */
const BOUNDARIES = [
  1e16, -1e16, 1.5e16, 1.0000000000000002e16, 9999999999999998, 1e21, 1.7976931348623157e308,
  1e-4, -1e-4, 1.0000000000000002e-4, 9.999999999999999e-5, 9.99e-5, 1e-5, 1.5e-7, 5e-324,
  0.1, 0.5, 123456.789, 1, 2.5,
];

function pythonReprs(values: number[]): string[] {
  const script = 'import sys\nfor line in sys.stdin:\n    print(repr(float(line)))';
  const input = values.map((v) => v.toExponential()).join('\n') + '\n';
  return execFileSync('/usr/bin/python3', ['-c', script], { input, encoding: 'utf8' }).trimEnd().split('\n');
}

test("pyFloatText is Python's repr(float), less the .0 Python adds to integral values", () => {
  const reprs = pythonReprs(BOUNDARIES);
  BOUNDARIES.forEach((n, i) => assert.equal(pyFloatText(n), reprs[i].replace(/\.0$/, ''), String(n)));
});

test('exponent form from 1e16 and below 1e-4, two exponent digits', () => {
  assert.equal(pyFloatText(1e16), '1e+16');
  assert.equal(pyFloatText(9999999999999998), '9999999999999998');
  assert.equal(pyFloatText(1e-4), '0.0001');
  assert.equal(pyFloatText(9.99e-5), '9.99e-05');
  assert.equal(pyFloatText(1.5e-7), '1.5e-07');
  assert.equal(pyFloatText(0), '0');
});
