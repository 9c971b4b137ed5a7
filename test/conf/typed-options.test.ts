/**
 * Option names are checked when the project builds: each accessor takes only a group of the catalog
 * and an option of that group. The @ts-expect-error lines are the test: if an unknown group or
 * option compiled, the directive itself would fail the build.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Config } from '../../src/conf/config';

test('known options read their defaults; unknown names fail to compile and throw', () => {
  const conf = new Config([]);
  assert.equal(conf.int('conductor', 'heartbeat_interval'), 10);
  assert.equal(conf.int('pxe', 'builtin_tftp_max_transfers'), 64);
  // @ts-expect-error an option [conductor] does not have
  assert.throws(() => conf.int('conductor', 'heartbeat_intervall'), /No such option \[conductor\]heartbeat_intervall/);
  // @ts-expect-error a group the catalog does not have
  assert.throws(() => conf.str('conductr', 'host'), /No such option \[conductr\]host/);
  // @ts-expect-error an option of another group
  assert.throws(() => conf.bool('api', 'automated_clean'), /No such option \[api\]automated_clean/);
  assert.equal(conf.optStrIfKnown('keystone_authtoken', 'no_such_option'), null);
});
