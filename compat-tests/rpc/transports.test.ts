/**
 * The `ironic` and `ironic-api` commands over each RPC transport an existing ironic.conf may name:
 * `ironic` with rpc_transport = oslo serves its own topic on RabbitMQ (as Ironic's single process
 * does), and with json-rpc it serves [json_rpc] so that a separate `ironic-api` process reaches
 * its conductor over HTTP.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { freePort, referenceLikeConf, startIronicTs, stopProcess, Target } from '../support/target';

const REPO = path.resolve(__dirname, '..', '..', '..');
const HEADERS = { 'X-OpenStack-Ironic-API-Version': '1.82', 'Content-Type': 'application/json' };

async function call(url: string, method: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(url, { method, headers: HEADERS, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) as Record<string, unknown> : {} };
}

async function waitFor(url: string, field: string, want: unknown): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 20000;
  for (;;) {
    const { json } = await call(url, 'GET');
    if (json[field] === want && json.target_provision_state === null && json.target_power_state === null) return json;
    if (Date.now() > deadline) throw new Error(`${url}: ${field} never became ${String(want)} (${JSON.stringify(json)})`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Create, power on and manage a node through `api`; the conductor behind it does the work. */
async function driveNode(api: string, name: string): Promise<void> {
  const created = await call(`${api}/v1/nodes`, 'POST', { driver: 'fake-hardware', name });
  assert.equal(created.status, 201, JSON.stringify(created.json));
  const node = `${api}/v1/nodes/${String(created.json.uuid)}`;
  assert.equal((await call(`${node}/states/power`, 'PUT', { target: 'power on' })).status, 202);
  assert.equal((await waitFor(node, 'power_state', 'power on')).power_state, 'power on');
  assert.equal((await call(`${node}/states/provision`, 'PUT', { target: 'manage' })).status, 202);
  assert.equal((await waitFor(node, 'provision_state', 'manageable')).provision_state, 'manageable');
}

test('ironic with rpc_transport = oslo serves its own RPC topic over RabbitMQ', async () => {
  const host = `oslo-single-${randomBytes(4).toString('hex')}`;
  const target = await startIronicTs(fs.mkdtempSync(path.join(os.tmpdir(), 'ironic-oslo-')), await freePort(),
    `rpc_transport = oslo\ntransport_url = rabbit://guest:guest@127.0.0.1:5672/\nhost = ${host}\nrpc_response_timeout = 20`);
  try {
    await driveNode(target.url, 'oslo-node');
    const { json } = await call(`${target.url}/v1/conductors`, 'GET');
    assert.deepEqual((json.conductors as Array<{ hostname: string }>).map((c) => c.hostname), [host]);
  } finally {
    await target.stop();
  }
});

test('ironic-api reaches the conductor of an ironic process over json-rpc', async () => {
  const conductorHost = '127.0.0.5';
  const rpcPort = await freePort();
  const jsonRpc = `rpc_transport = json-rpc\nhost = ${conductorHost}\n[json_rpc]\nhost_ip = ${conductorHost}\nport = ${rpcPort}\nauth_strategy = noauth\n[DEFAULT]`;
  const single: Target = await startIronicTs(fs.mkdtempSync(path.join(os.tmpdir(), 'ironic-jsonrpc-')), await freePort(), jsonRpc);
  const apiDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ironic-jsonrpc-api-'));
  const apiPort = await freePort();
  // Same database and state as the single process; only the API runs here.
  const apiConf = referenceLikeConf(single.dir, apiPort, jsonRpc.replace(`host = ${conductorHost}`, 'host = api-only'));
  fs.writeFileSync(path.join(apiDir, 'ironic.conf'), apiConf);
  const log = fs.openSync(path.join(apiDir, 'stdout.log'), 'a');
  const api = spawn(process.execPath, [path.join(REPO, 'dist', 'src', 'cmd', 'ironic-api.js'), '--config-file', path.join(apiDir, 'ironic.conf')],
    { stdio: ['ignore', log, log] });
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  try {
    const deadline = Date.now() + 20000;
    while (!(await fetch(`${apiUrl}/v1`).then((r) => r.ok, () => false))) {
      if (Date.now() > deadline || api.exitCode !== null) throw new Error(fs.readFileSync(path.join(apiDir, 'stdout.log'), 'utf8'));
      await new Promise((r) => setTimeout(r, 100));
    }
    await driveNode(apiUrl, 'jsonrpc-node');
    // The call crossed processes: the conductor's log has the power change, the API's does not run one.
    const conductorLog = fs.readFileSync(path.join(single.dir, 'stdout.log'), 'utf8');
    assert.match(conductorLog, new RegExp(`JSON-RPC listening on http://${conductorHost.replace(/\./g, '\\.')}:${rpcPort}`));
    assert.match(conductorLog, /Successfully set node \S+ power state to power on/);
    // The API process's request id travelled with the call: the conductor's line names it and the node.
    assert.match(conductorLog, /ironic-ts \[req-[0-9a-f-]{36} [0-9a-f-]{36}\] Successfully set node \S+ power state to power on/);
    const refused = await fetch(`http://${conductorHost}:${rpcPort}`, { method: 'GET' });
    assert.equal(refused.status, 405);
  } finally {
    await stopProcess(api);
    fs.rmSync(apiDir, { recursive: true, force: true });
    await single.stop();
  }
});
