/**
 * The dashboard's static files, session and API proxy over real sockets, under http_basic: the
 * security headers on every answer, 401 without a session, the login's cookie, the CSRF token on
 * every non-GET through the proxy (403 without it), and the proxy running the real /v1 handlers.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import bcrypt from 'bcrypt';
import { startTestServer, type TestServer } from '../api/support/server';
import { SessionStore } from '../../src/dashboard/sessions';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dashboard-session-'));
const htpasswd = path.join(dir, 'htpasswd');
fs.writeFileSync(htpasswd, `operator:${bcrypt.hashSync('right password', 4)}\n`);
let server: TestServer;

before(async () => {
  server = await startTestServer({ DEFAULT: { auth_strategy: 'http_basic', http_basic_auth_user_file: htpasswd } });
});
after(async () => {
  await server.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const V = { 'X-OpenStack-Ironic-API-Version': '1.96' };

function get(urlPath: string, headers: Record<string, string> = {}, method = 'GET', body?: string): Promise<Response> {
  return fetch(server.url + urlPath, { method, headers, body });
}

function assertSecurityHeaders(res: Response): void {
  const csp = res.headers.get('content-security-policy') ?? '';
  assert.match(csp, /default-src 'self'/);
  assert.match(csp, /script-src 'self'/);
  assert.match(csp, /frame-ancestors 'none'/);
  assert.doesNotMatch(csp, /unsafe-inline/);
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
  assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
}

async function login(): Promise<{ cookie: string; csrf: string; setCookie: string }> {
  const res = await get('/dashboard/session', { 'Content-Type': 'application/json' }, 'POST',
    JSON.stringify({ username: 'operator', password: 'right password' }));
  assert.equal(res.status, 201);
  const body = await res.json() as { user: string; csrf_token: string };
  assert.equal(body.user, 'operator');
  const setCookie = res.headers.get('set-cookie') ?? '';
  return { cookie: setCookie.split(';')[0], csrf: body.csrf_token, setCookie };
}

/** A raw request line, so `..` segments reach the server as sent. */
function rawGet(urlPath: string): Promise<number> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: urlPath }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on('error', reject);
  });
}

describe('static files', () => {
  it('serves the app with the security headers and no session', async () => {
    const res = await get('/dashboard/');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/html/);
    assertSecurityHeaders(res);
    assert.match(await res.text(), /<html/i);
  });

  it('refuses paths leaving web/dashboard and vendor files not on the allow-list', async () => {
    for (const p of ['/dashboard/../package.json', '/dashboard/%2e%2e/%2e%2e/package.json', '/dashboard/..%2f..%2fpackage.json']) {
      assert.ok([400, 403, 404].includes(await rawGet(p)), p);
    }
    const vendor = await get('/dashboard/vendor/..%2f..%2fpackage.json');
    assert.equal(vendor.status, 404);
    assertSecurityHeaders(vendor);
    assert.equal((await get('/dashboard/vendor/__proto__')).status, 404);
  });
});

describe('authentication', () => {
  it('answers 401 to the session, the proxy and the streams without credentials, with the headers', async () => {
    for (const p of ['/dashboard/session', '/dashboard/api/v1/nodes', '/dashboard/api/events/nodes', '/events/nodes']) {
      const res = await get(p);
      assert.equal(res.status, 401, p);
      assertSecurityHeaders(res);
      await res.arrayBuffer();
    }
    const forged = await get('/dashboard/api/v1/nodes', { Cookie: 'ironic_ts_session=forged', ...V });
    assert.equal(forged.status, 401);
  });

  it('refuses a wrong password and a login from another origin', async () => {
    const wrong = await get('/dashboard/session', { 'Content-Type': 'application/json' }, 'POST',
      JSON.stringify({ username: 'operator', password: 'wrong' }));
    assert.equal(wrong.status, 401);
    assert.equal(wrong.headers.get('set-cookie'), null);
    const cross = await get('/dashboard/session', { 'Content-Type': 'application/json', Origin: 'http://evil.example' }, 'POST',
      JSON.stringify({ username: 'operator', password: 'right password' }));
    assert.equal(cross.status, 403);
    const bad = await get('/dashboard/session', { 'Content-Type': 'application/json' }, 'POST', '{"username": ["x"]}');
    assert.equal(bad.status, 400);
  });

  it('logs in with an HttpOnly, SameSite=Strict cookie holding a 256-bit random id', async () => {
    const { setCookie, cookie, csrf } = await login();
    assert.match(setCookie, /HttpOnly/);
    assert.match(setCookie, /SameSite=Strict/);
    assert.match(setCookie, /Path=\/dashboard/);
    const id = cookie.split('=')[1];
    assert.equal(Buffer.from(id, 'base64url').length, 32);
    assert.equal(Buffer.from(csrf, 'base64url').length, 32);
    assert.notEqual((await login()).cookie, cookie);
    const me = await get('/dashboard/session', { Cookie: cookie });
    assert.equal(me.status, 200);
    assert.equal((await me.json() as { user: string }).user, 'operator');
  });
});

describe('API proxy', () => {
  it('runs the /v1 handlers with the session', async () => {
    const { cookie } = await login();
    const res = await get('/dashboard/api/v1/nodes', { Cookie: cookie, ...V });
    assert.equal(res.status, 200);
    assertSecurityHeaders(res);
    assert.deepEqual(Object.keys(await res.json() as object), ['nodes']);
    const root = await get('/dashboard/api/v1', { Cookie: cookie, ...V });
    assert.equal(root.status, 200);
  });

  it('refuses a POST, PATCH or DELETE without the CSRF token (403) and runs it with the token', async () => {
    const { cookie, csrf } = await login();
    const json = { Cookie: cookie, ...V, 'Content-Type': 'application/json' };
    const body = JSON.stringify({ driver: 'fake-hardware', name: 'csrf-node' });
    const missing = await get('/dashboard/api/v1/nodes', json, 'POST', body);
    assert.equal(missing.status, 403);
    assertSecurityHeaders(missing);
    const wrong = await get('/dashboard/api/v1/nodes', { ...json, 'X-CSRF-Token': `${csrf.slice(0, -2)}xx` }, 'POST', body);
    assert.equal(wrong.status, 403);
    const list = await (await get('/dashboard/api/v1/nodes', { Cookie: cookie, ...V })).json() as { nodes: unknown[] };
    assert.equal(list.nodes.length, 0, 'nothing was created without the token');
    const created = await get('/dashboard/api/v1/nodes', { ...json, 'X-CSRF-Token': csrf }, 'POST', body);
    assert.equal(created.status, 201);
    const node = await created.json() as { uuid: string; name: string };
    assert.equal(node.name, 'csrf-node');
    const del = await get(`/dashboard/api/v1/nodes/${node.uuid}`, { Cookie: cookie, ...V }, 'DELETE');
    assert.equal(del.status, 403);
    const delOk = await get(`/dashboard/api/v1/nodes/${node.uuid}`, { Cookie: cookie, ...V, 'X-CSRF-Token': csrf }, 'DELETE');
    assert.equal(delOk.status, 204);
  });

  it('logs out with the token only, and the session is gone', async () => {
    const { cookie, csrf } = await login();
    assert.equal((await get('/dashboard/session', { Cookie: cookie }, 'DELETE')).status, 403);
    const out = await get('/dashboard/session', { Cookie: cookie, 'X-CSRF-Token': csrf }, 'DELETE');
    assert.equal(out.status, 204);
    assert.match(out.headers.get('set-cookie') ?? '', /Max-Age=0/);
    assert.equal((await get('/dashboard/session', { Cookie: cookie })).status, 401);
    assert.equal((await get('/dashboard/api/v1/nodes', { Cookie: cookie, ...V })).status, 401);
  });
});

describe('hostile input', () => {
  it('answers odd login bodies, stream queries and tokens with 4xx, never 5xx', async () => {
    const post = (body: string) => get('/dashboard/session', { 'Content-Type': 'application/json' }, 'POST', body);
    for (const body of ['', 'null', '[]', '"x"', '{"username": "operator"}', '{"__proto__": {"username": "operator", "password": "right password"}}',
      '{"username": "operator", "password": "right password", "project": {"id": 1}}', '{"username": "operator", "password": 5}']) {
      assert.equal((await post(body)).status, 400, body);
    }
    assert.equal((await post(JSON.stringify({ username: 'operator', password: 'x'.repeat(20000) }))).status, 413);
    const basic = { Authorization: `Basic ${Buffer.from('operator:right password').toString('base64')}` };
    for (const query of ['type=__proto__', 'type=constructor', 'type=provision_state&type=toString']) {
      const res = await get(`/events/nodes?${query}`, basic);
      assert.equal(res.status, 400, query);
      await res.arrayBuffer();
    }
    const { cookie } = await login();
    for (const token of ['', 'x', 'a'.repeat(43), 'a'.repeat(1000)]) {
      const res = await get('/dashboard/api/v1/nodes', { Cookie: cookie, ...V, 'X-CSRF-Token': token }, 'POST', '{}');
      assert.equal(res.status, 403, JSON.stringify(token));
    }
    assert.equal((await get('/dashboard/session', { Cookie: `ironic_ts_session=${'a'.repeat(5000)}` })).status, 401);
  });
});

describe('state machine', () => {
  it('serves conductor/fsm.ts as JSON to a session only', async () => {
    assert.equal((await get('/dashboard/api/state-machine')).status, 401);
    const { cookie } = await login();
    const res = await get('/dashboard/api/state-machine', { Cookie: cookie });
    assert.equal(res.status, 200);
    assertSecurityHeaders(res);
    const machine = await res.json() as {
      states: Array<{ name: string; kind: string; target: string | null }>;
      transitions: Array<{ from: string; event: string; to: string }>;
      verbs: Record<string, string>;
    };
    const state = (name: string) => machine.states.find((st) => st.name === name);
    assert.deepEqual(state('manageable'), { name: 'manageable', kind: 'stable', target: null });
    assert.deepEqual(state('verifying'), { name: 'verifying', kind: 'unstable', target: 'manageable' });
    assert.deepEqual(state('clean failed'), { name: 'clean failed', kind: 'failed', target: 'available' });
    assert.ok(machine.transitions.some((t) => t.from === 'enroll' && t.event === 'manage' && t.to === 'verifying'));
    assert.equal(machine.verbs.provide, 'provide');
    assert.equal(machine.verbs.active, 'deploy');
    assert.equal(machine.verbs.undeploy, 'delete');
  });
});

describe('session store', () => {
  it('expires sessions when idle and at their maximum age, and keeps at most maxSessions', () => {
    let now = 1_000_000;
    const store = new SessionStore({ idleMs: 1000, maxAgeMs: 5000, maxSessions: 3 }, () => now);
    const values = { user: 'u', project: null, roles: [], identity: null, token: null };
    const a = store.create(values);
    now += 999;
    assert.ok(store.get(a.id));
    now += 1000;
    assert.equal(store.get(a.id), null, 'idle too long');
    const b = store.create(values);
    for (let i = 0; i < 6; i += 1) {
      now += 900;
      if (i < 5) assert.ok(store.get(b.id), `touched at ${i}`);
    }
    assert.equal(store.get(b.id), null, 'past the maximum age');
    const ids = [store.create(values), store.create(values), store.create(values), store.create(values)].map((s) => s.id);
    assert.ok(store.size <= 3);
    assert.equal(store.get(ids[0]), null, 'the oldest went first');
    assert.ok(store.get(ids[3]));
  });
});
