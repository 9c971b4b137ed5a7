import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pyRepr, pyReprSet, pyReprTuple } from '../../../src/common/python/repr';
import { pyStr } from '../../../src/common/python/str';
import { pyTruthy } from '../../../src/common/python/truthiness';

test('pyRepr spells JSON values as Python prints the loaded dict', () => {
  assert.equal(pyRepr({ a: [1, 2.5, null], b: true, c: "it's" }), `{'a': [1, 2.5, None], 'b': True, 'c': "it's"}`);
  assert.equal(pyRepr('a\\b\n'), "'a\\\\b\\n'");
});

test('pyRepr: integral numbers are ints, the rest floats in Python spelling', () => {
  assert.equal(pyRepr([1e16, 0.0001, 0.00001, 1.5e-7]), '[10000000000000000, 0.0001, 1e-05, 1.5e-07]');
  assert.equal(pyRepr([NaN, Infinity, -Infinity]), '[nan, inf, -inf]');
});

test('pyStr leaves strings bare and reprs the rest', () => {
  assert.equal(pyStr('x'), 'x');
  assert.equal(pyStr(['x']), "['x']");
  assert.equal(pyStr(null), 'None');
});

test('pyTruthy follows Python: empty containers, "", 0, False and None are false', () => {
  for (const v of [null, undefined, '', 0, false, [], {}]) assert.equal(pyTruthy(v), false, JSON.stringify(v));
  for (const v of ['0', 1, true, [0], { a: null }]) assert.equal(pyTruthy(v), true, JSON.stringify(v));
});

test('tuples and sets in Python spelling', () => {
  assert.equal(pyReprTuple(['available', 'manageable']), "('available', 'manageable')");
  assert.equal(pyReprTuple(['enroll']), "('enroll',)");
  assert.equal(pyReprSet(['clean_steps', 'hardware_manager_version']), "{'clean_steps', 'hardware_manager_version'}");
  assert.equal(pyReprSet([]), 'set()');
});
