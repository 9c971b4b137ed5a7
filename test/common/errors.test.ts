/** The error table: each exception class is found by its Ironic name, and the name is its export's. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as errors from '../../src/common/errors';
import { fromFailure } from '../../src/rpc/wire';

const exported = Object.entries(errors).filter(([, value]) =>
  typeof value === 'function' && (value as { prototype?: unknown }).prototype instanceof errors.IronicError);

test('every exported Ironic exception is in the table under its own name', () => {
  assert.ok(exported.length > 150);
  for (const [name, cls] of exported) {
    if (name === 'ClientSideError' || name === 'InvalidInput') continue; // constructed by message and status, API-only
    const kind = new (cls as errors.IronicErrorClass)('m').kind;
    assert.equal(errors.errorClass(kind), cls, name);
    if (name !== 'ObjectFieldError') assert.equal(kind, name); // Python's ValueError
  }
});

test('names that are not exception classes find nothing, prototype members included', () => {
  for (const kind of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'withCode', 'IronicError']) {
    assert.equal(errors.errorClass(kind), null, kind);
    assert.equal(fromFailure({ kind, code: 500, message: 'x' }).constructor, errors.IronicError, kind);
  }
});

test('ClientSideError carries its status; InvalidInput spells Ironic\'s message', () => {
  assert.equal(new errors.ClientSideError('no').code, 400);
  assert.equal(new errors.ClientSideError('no', 405).faultcode, 'Client');
  const err = new errors.InvalidInput('node_uuid', 'abc');
  assert.equal(err.message, "Invalid input for field/attribute node_uuid. Value: 'abc'. ");
  assert.equal(err.code, 400);
});
