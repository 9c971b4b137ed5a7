/** Errors crossing the RPC wire keep their class, message and (for Ironic's code=) their status. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InstanceDeployFailure, IronicError, NodeLocked, withCode } from '../../src/common/errors';
import { fromFailure, toFailure } from '../../src/rpc/wire';

test('an exception raised with another status keeps it across the wire', () => {
  const sent = withCode(new InstanceDeployFailure('Failed to validate deploy or power info for node x: bad'), 400);
  const got = fromFailure(JSON.parse(JSON.stringify(toFailure(sent))));
  assert.ok(got instanceof InstanceDeployFailure);
  assert.equal((got as IronicError).code, 400);
  assert.equal((got as IronicError).faultcode, 'Client');
  assert.equal(got.message, sent.message);
});

test('class statuses are unchanged', () => {
  assert.equal((fromFailure(toFailure(new InstanceDeployFailure('boom'))) as IronicError).code, 500);
  assert.equal((fromFailure(toFailure(new NodeLocked({ node: 'n', host: 'h' }))) as IronicError).code, 409);
});
