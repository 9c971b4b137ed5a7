/**
 * The serial console end to end over real sockets: an ipmi node on OpenIPMI's ipmi_sim with Serial
 * over LAN, its ipmitool-socat console enabled through the API (socat running `ipmitool sol
 * activate`), and the dashboard's WebSocket relaying the simulated serial line's output to the
 * browser side and the typed keys back. Handshakes without a session or from another origin are refused.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import WebSocket from 'ws';
import { startTestServer, type TestServer } from '../api/support/server';
import { freePort } from '../../compat-tests/support/target';
import { startSolSim, USER, PASSWORD, type SolSim } from './support/sol-sim';

const V = '1.96';
let server: TestServer;
let sim: SolSim;
let dir: string;
let cookie: string;
let ipmiNode: string;
let fakeNode: string;

function wsUrl(node: string): string {
  return `${server.url.replace(/^http/, 'ws')}/dashboard/console/${node}`;
}

/** Opens the console WebSocket; resolves the socket, or the handshake's HTTP status when refused. */
function openConsole(node: string, headers: Record<string, string>): Promise<WebSocket | number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl(node), { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      res.resume();
    });
    ws.once('error', reject);
  });
}

function closeOf(ws: WebSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
}

async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dashboard-console-'));
  sim = await startSolSim();
  const first = await freePort();
  server = await startTestServer({
    DEFAULT: { enabled_console_interfaces: 'fake,no-console,ipmitool-socat', tempdir: dir },
    console: { socat_address: '127.0.0.1', port_range: `${first}:${first + 20}`, terminal_pid_dir: path.join(dir, 'pids') },
    ipmi: { min_command_interval: '1', command_retry_timeout: '10' },
  });
  const login = await fetch(`${server.url}/dashboard/session`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: 'operator', password: 'x' }),
  });
  assert.equal(login.status, 201);
  cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  const ipmi = await server.request('POST', '/v1/nodes', {
    version: V,
    body: {
      driver: 'ipmi', name: 'sol-node', console_interface: 'ipmitool-socat',
      driver_info: { ipmi_address: '127.0.0.1', ipmi_port: sim.port, ipmi_username: USER, ipmi_password: PASSWORD },
    },
  });
  assert.equal(ipmi.status, 201, ipmi.text);
  ipmiNode = ipmi.json.uuid;
  const fake = await server.request('POST', '/v1/nodes', { version: V, body: { driver: 'fake-hardware', name: 'fake-console' } });
  fakeNode = fake.json.uuid;
});

after(async () => {
  await server?.request('PUT', `/v1/nodes/${ipmiNode}/states/console`, { version: V, body: { enabled: false } }).catch(() => undefined);
  await waitUntil(() => !fs.existsSync(path.join(dir, 'pids', `${ipmiNode}.pid`)), 15000, 'socat to stop').catch(() => undefined);
  await server?.stop();
  await sim?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('console relay', () => {
  it('refuses a handshake without a session (401) or from another origin (403)', async () => {
    assert.equal(await openConsole(ipmiNode, { Origin: server.url }), 401);
    assert.equal(await openConsole(ipmiNode, { Cookie: cookie, Origin: 'http://evil.example' }), 403);
    assert.equal(await openConsole(ipmiNode, { Cookie: cookie }), 403, 'a browser always sends Origin');
  });

  it('closes with a reason while the console is disabled or offers no serial stream', async () => {
    const disabled = await openConsole(ipmiNode, { Cookie: cookie, Origin: server.url });
    assert.ok(disabled instanceof WebSocket);
    assert.deepEqual(await closeOf(disabled), { code: 1008, reason: 'The node\'s console is not enabled' });
    assert.equal((await server.request('PUT', `/v1/nodes/${fakeNode}/states/console`, { version: V, body: { enabled: true } })).status, 202);
    await waitUntil(async () => (await server.request('GET', `/v1/nodes/${fakeNode}/states/console`, { version: V })).json.console_enabled,
      10000, 'the fake console');
    const fake = await openConsole(fakeNode, { Cookie: cookie, Origin: server.url });
    assert.ok(fake instanceof WebSocket);
    assert.equal((await closeOf(fake)).reason, 'The node\'s console interface offers no serial stream');
  });

  it('relays the simulated serial line both ways once the console is enabled through the API', async () => {
    const enable = await server.request('PUT', `/v1/nodes/${ipmiNode}/states/console`, { version: V, body: { enabled: true } });
    assert.equal(enable.status, 202, enable.text);
    let info: { console_enabled: boolean; console_info: { type: string; url: string } | null } = { console_enabled: false, console_info: null };
    await waitUntil(async () => {
      info = (await server.request('GET', `/v1/nodes/${ipmiNode}/states/console`, { version: V })).json;
      return info.console_enabled;
    }, 30000, 'console_enabled');
    assert.equal(info.console_info?.type, 'socat');
    assert.match(info.console_info?.url ?? '', /^tcp:\/\/127\.0\.0\.1:\d+$/);
    const node = (await server.request('GET', `/v1/nodes/${ipmiNode}`, { version: V })).json;
    assert.equal(typeof node.driver_internal_info.allocated_ipmi_terminal_port, 'number');
    assert.ok(fs.existsSync(path.join(dir, 'pids', `${ipmiNode}.pid`)), 'socat\'s pid file');

    const ws = await openConsole(ipmiNode, { Cookie: cookie, Origin: server.url });
    assert.ok(ws instanceof WebSocket, `handshake answered ${String(ws)}`);
    let received = '';
    ws.on('message', (data: Buffer) => { received += data.toString('latin1'); });
    await sim.connected;
    // The SOL session opens when socat runs ipmitool for the relay's connection: keep writing until it shows.
    await waitUntil(() => {
      sim.write('serial output from the node\r\n');
      return received.includes('serial output from the node');
    }, 30000, `the serial output on the WebSocket (got ${JSON.stringify(received.slice(-200))})`);
    ws.send('typed in the browser\r');
    await waitUntil(() => sim.typed().includes('typed in the browser'), 15000, 'the typed keys on the serial line');
    ws.close();
    await closeOf(ws);

    assert.equal((await server.request('PUT', `/v1/nodes/${ipmiNode}/states/console`, { version: V, body: { enabled: false } })).status, 202);
    await waitUntil(async () => !(await server.request('GET', `/v1/nodes/${ipmiNode}/states/console`, { version: V })).json.console_enabled,
      15000, 'the console to be disabled');
    assert.ok(!fs.existsSync(path.join(dir, 'pids', `${ipmiNode}.pid`)), 'socat stopped');
    assert.ok(!fs.existsSync(path.join(dir, `${ipmiNode}.pw`)), 'the password file is removed');
    const after = (await server.request('GET', `/v1/nodes/${ipmiNode}`, { version: V })).json;
    assert.equal(after.driver_internal_info.allocated_ipmi_terminal_port, undefined, 'the port is released');
  });
});
