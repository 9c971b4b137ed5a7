/**
 * [json_rpc]auth_strategy = keystone against a real Keystone: the conductor validates the caller's
 * token with [keystone_authtoken] and admits only [json_rpc]allowed_roles; the API side gets its
 * token with the [json_rpc] password credentials.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Config } from '../../src/conf/config';
import { JsonRpcCaller } from '../../src/rpc/json-rpc-client';
import { startKeystone, Keystone } from '../support/keystone';
import { freePort, startIronicTs, Target } from '../support/target';

const CONDUCTOR_HOST = '127.0.0.6';
let ks: Keystone;
let conductor: Target;
let rpcPort: number;

function caller(user: string, password: string, project: string): JsonRpcCaller {
  return new JsonRpcCaller(new Config([], {
    DEFAULT: { rpc_transport: 'json-rpc' },
    json_rpc: {
      port: rpcPort, auth_type: 'password', auth_url: ks.url, username: user, password, project_name: project,
      user_domain_name: 'Default', project_domain_name: 'Default',
    },
  }));
}

before(async () => {
  ks = await startKeystone();
  await ks.createUser('ironic', { password: 'ironic-service-password', project: 'service', projectRoles: ['admin', 'service'] });
  await ks.createUser('rpc-member', { password: 'member-password', project: 'proj-m', projectRoles: ['member'] });
  rpcPort = await freePort();
  conductor = await startIronicTs(fs.mkdtempSync(path.join(os.tmpdir(), 'ironic-jsonrpc-ks-')), await freePort(), `rpc_transport = json-rpc
host = ${CONDUCTOR_HOST}
[json_rpc]
host_ip = ${CONDUCTOR_HOST}
port = ${rpcPort}
auth_strategy = keystone
allowed_roles = admin
[keystone_authtoken]
auth_type = password
auth_url = ${ks.url}
username = ironic
password = ironic-service-password
project_name = service
user_domain_name = Default
project_domain_name = Default
[DEFAULT]`);
});

after(async () => {
  await conductor?.stop();
  await ks?.stop();
});

test('a caller with an allowed role is served', async () => {
  const props = await caller('ironic', 'ironic-service-password', 'service').call(CONDUCTOR_HOST, 'getDriverProperties', ['fake-hardware']);
  assert.ok(props && typeof props === 'object' && Object.keys(props).length > 0, JSON.stringify(props));
});

test('a caller without an allowed role gets 403, and one without a token 401', async () => {
  await assert.rejects(caller('rpc-member', 'member-password', 'proj-m').call(CONDUCTOR_HOST, 'getDriverProperties', ['fake-hardware']),
    /returned HTTP 403: Forbidden/);
  const anonymous = await fetch(`http://${CONDUCTOR_HOST}:${rpcPort}`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'getDriverProperties', params: { args: ['fake-hardware'] }, id: 1 }),
  });
  assert.equal(anonymous.status, 401);
  assert.deepEqual(await anonymous.json(), { error: { code: 401, message: 'Authentication required' } });
});
