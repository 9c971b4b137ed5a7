/**
 * The serial console end to end over real sockets: an `ironic` process, an ipmi node on OpenIPMI's
 * ipmi_sim with Serial over LAN, its ipmitool-socat console enabled through the API (socat running
 * `ipmitool sol activate`), and the dashboard's WebSocket relaying the simulated serial line's output
 * to the browser side and the typed keys back. Handshakes without a session or from another origin
 * are refused; a disabled console or one without a serial stream closes with the reason.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import WebSocket from 'ws';
import { api, createNode } from './support/nodes';
import { startConsoleNode, startDashboardServer, type ConsoleNode, type DashboardServer } from './support/servers';

let server: DashboardServer;
let node: ConsoleNode;
let cookie: string;

function wsUrl(ident: string): string {
  return `${server.url.replace(/^http/, 'ws')}/dashboard/console/${ident}`;
}

/** Opens the console WebSocket; resolves the socket, or the handshake's HTTP status when refused. */
function openConsole(ident: string, headers: Record<string, string>): Promise<WebSocket | number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl(ident), { headers });
    closes.set(ws, new Promise((done) => ws.once('close', (code, reason) => done({ code, reason: reason.toString() }))));
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      res.resume();
    });
    ws.once('error', reject);
  });
}

/** The close code and reason (recorded from the start: the close may come before anyone waits). */
const closes = new WeakMap<WebSocket, Promise<{ code: number; reason: string }>>();

function closeOf(ws: WebSocket): Promise<{ code: number; reason: string }> {
  const closed = closes.get(ws);
  if (!closed) throw new Error('not a socket from openConsole');
  return closed;
}

async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function consoleState(ident: string): Promise<{ console_enabled: boolean; console_info: { type: string; url: string } | null }> {
  return (await api(server.url, 'GET', `/v1/nodes/${ident}/states/console`)).json as never;
}

before(async () => {
  server = await startDashboardServer();
  const login = await fetch(`${server.url}/dashboard/session`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(server.users.operator),
  });
  assert.equal(login.status, 201);
  cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  node = await startConsoleNode(server.url);
});

after(async () => {
  await node?.stop();
  await server?.stop();
});

describe('console relay', () => {
  it('refuses a handshake without a session (401) or from another origin (403)', async () => {
    assert.equal(await openConsole(node.uuid, { Origin: server.url }), 401);
    assert.equal(await openConsole(node.uuid, { Cookie: cookie, Origin: 'http://evil.example' }), 403);
    assert.equal(await openConsole(node.uuid, { Cookie: cookie }), 403, 'a browser always sends Origin');
  });

  it('closes with a reason while a console is disabled or offers no serial stream', async () => {
    const fakeNode = await createNode(server.url, { name: 'fake-console' });
    const disabled = await openConsole(fakeNode, { Cookie: cookie, Origin: server.url });
    assert.ok(disabled instanceof WebSocket);
    assert.deepEqual(await closeOf(disabled), { code: 1008, reason: 'The node\'s console is not enabled' });
    assert.equal((await api(server.url, 'PUT', `/v1/nodes/${fakeNode}/states/console`, { enabled: true })).status, 202);
    await waitUntil(async () => (await consoleState(fakeNode)).console_enabled, 10000, 'the fake console');
    const fake = await openConsole(fakeNode, { Cookie: cookie, Origin: server.url });
    assert.ok(fake instanceof WebSocket);
    assert.equal((await closeOf(fake)).reason, 'The node\'s console interface offers no serial stream');
  });

  it('relays the simulated serial line both ways', async () => {
    const info = await consoleState(node.uuid);
    assert.equal(info.console_info?.type, 'socat');
    assert.match(info.console_info?.url ?? '', /^tcp:\/\/127\.0\.0\.1:\d+$/);
    const shown = (await api(server.url, 'GET', `/v1/nodes/${node.uuid}`)).json as { driver_internal_info: Record<string, unknown> };
    assert.equal(typeof shown.driver_internal_info.allocated_ipmi_terminal_port, 'number');
    assert.ok(fs.existsSync(path.join(server.dir, 'console', `${node.uuid}.pid`)), 'socat\'s pid file');

    const ws = await openConsole(node.uuid, { Cookie: cookie, Origin: server.url });
    assert.ok(ws instanceof WebSocket, `handshake answered ${String(ws)}`);
    let received = '';
    ws.on('message', (data: Buffer) => { received += data.toString('latin1'); });
    await node.sim.connected;
    // The SOL session opens when socat runs ipmitool for the relay's connection: keep writing until it shows.
    await waitUntil(() => {
      node.sim.write('serial output from the node\r\n');
      return received.includes('serial output from the node');
    }, 30000, `the serial output on the WebSocket (got ${JSON.stringify(received.slice(-200))})`);
    const second = await openConsole(node.uuid, { Cookie: cookie, Origin: server.url });
    assert.ok(second instanceof WebSocket);
    assert.equal((await closeOf(second)).reason, 'The console is already open elsewhere');
    ws.send('typed in the browser\r');
    await waitUntil(() => node.sim.typed().includes('typed in the browser'), 15000, 'the typed keys on the serial line');
    ws.close();
    assert.equal((await closeOf(ws)).code, 1005, 'closed by the browser side, not by a lost console');
  });

  it('stops socat and removes its files when the console is disabled', async () => {
    assert.equal((await api(server.url, 'PUT', `/v1/nodes/${node.uuid}/states/console`, { enabled: false })).status, 202);
    await waitUntil(async () => !(await consoleState(node.uuid)).console_enabled, 15000, 'the console to be disabled');
    assert.ok(!fs.existsSync(path.join(server.dir, 'console', `${node.uuid}.pid`)), 'socat stopped');
    assert.ok(!fs.existsSync(path.join(server.dir, `${node.uuid}.pw`)), 'the password file is removed');
    const shown = (await api(server.url, 'GET', `/v1/nodes/${node.uuid}`)).json as { driver_internal_info: Record<string, unknown> };
    assert.equal(shown.driver_internal_info.allocated_ipmi_terminal_port, undefined, 'the port is released');
  });
});
