/**
 * JSON-RPC error messages are masked: a conductor error echoing stored secrets (an SQL error with
 * bound driver_info, a URL with credentials) reaches the caller without them.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { IronicError } from '../../src/common/errors';
import type { ConductorApi } from '../../src/rpc/conductor-api';
import { JsonRpcServer, serveJsonRpc } from '../../src/rpc/json-rpc-server';
import { makeConf } from '../conductor/support';

const LEAK = "insert into `nodes` (`driver_info`) values ('{\"ipmi_password\": \"SECRETPW\"}') - " +
  'UNIQUE constraint failed; see https://admin:URLPW@bmc/redfish';

let server: JsonRpcServer;

before(async () => {
  const conf = makeConf('127.0.0.1', {
    DEFAULT: { rpc_transport: 'json-rpc', auth_strategy: 'noauth' },
    json_rpc: { host_ip: '127.0.0.1', port: 0 },
  });
  const local = {
    createNode: () => Promise.reject(new Error(LEAK)),
    vifList: () => Promise.reject(new IronicError(`Node failed: ipmi_password=SECRETPW`)),
  } as unknown as ConductorApi;
  server = await serveJsonRpc(conf, local);
});

after(async () => { await server?.close(); });

async function call(method: string): Promise<{ code: number; message: string }> {
  const res = await fetch(server.url, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { args: [] } }),
  });
  return ((await res.json()) as { error: { code: number; message: string } }).error;
}

test('a raw 500 message (SQL text with bound values, a URL with userinfo) comes back masked', async () => {
  const error = await call('createNode');
  assert.equal(error.code, 500);
  assert.doesNotMatch(error.message, /SECRETPW|URLPW|admin:/);
  assert.match(error.message, /"ipmi_password": "\*\*\*\*\*\*"/);
  assert.match(error.message, /https:\/\/\*\*\*\*\*\*@bmc\/redfish/);
});

test("an Ironic error's message comes back masked", async () => {
  const error = await call('vifList');
  assert.equal(error.message, 'Node failed: ipmi_password=******');
});
