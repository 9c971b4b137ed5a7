import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pyInt } from '../../../src/common/python/int';

test('pyInt converts as Python int() does, null where int() raises', () => {
  assert.equal(pyInt(' 6_23 '), 623);
  assert.equal(pyInt('-7'), -7);
  assert.equal(pyInt(2.9), 2);
  assert.equal(pyInt(true), 1);
  for (const v of ['1.5', '', 'x', null, [], {}]) assert.equal(pyInt(v), null, JSON.stringify(v));
});
