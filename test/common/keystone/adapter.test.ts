/**
 * ServiceAdapter.fetch against a real local HTTP server playing both Keystone (POST
 * /v3/auth/tokens) and a service (a labelled stub: the real services are exercised in
 * compat-tests/): the catalog endpoint below which a path is sent, one re-authentication and
 * resend after a 401, [group]timeout with and without auth, and ServiceConnectFailure.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { ServiceAdapter, ServiceConnectFailure } from '../../../src/common/keystone/adapter';
import { Config } from '../../../src/conf/config';

const server = createServer((req, res) => void route(req, res));
let base = '';
let issued = 0;
/** Token and body of every request the service saw. */
const seen: Array<{ token: string; body: string }> = [];

const TOKEN_PREFIX = 'secret-token-';
/** Not a timing target: without the 1 s [group]timeout these tests would wait forever, so they fail instead. */
const HANG_BOUND_MS = 60_000;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    req.on('data', (c) => { body += String(c); });
    req.on('end', () => resolve(body));
  });
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
}

async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readBody(req);
  if (req.url === '/v3/auth/tokens') {
    issued++;
    return json(res, 201, { token: {
      expires_at: new Date(Date.now() + 3_600_000).toISOString(), project: { id: 'p-service' },
      catalog: [{ type: 'network', endpoints: [{ interface: 'internal', url: `${base}/svc/` }] }],
    } }, { 'X-Subject-Token': `${TOKEN_PREFIX}${issued}` });
  }
  const token = String(req.headers['x-auth-token'] ?? '');
  seen.push({ token, body });
  // The service never answers: the client's timeout must end the wait.
  if (req.url === '/svc/hang') return;
  // Only the second token is accepted: the first one was revoked.
  if (req.url === '/svc/revoked' && token !== `${TOKEN_PREFIX}2`) return json(res, 401, { error: 'revoked' });
  if (req.url === '/svc/refused') return json(res, 401, { error: 'refused' });
  json(res, 200, { ok: req.url });
}

before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  issued = 0;
  seen.length = 0;
});

const authenticated = (extra: Record<string, string | number> = {}) => new ServiceAdapter(new Config([], { neutron: {
  auth_type: 'password', auth_url: base, username: 'ironic', password: 'pw', project_name: 'service',
  user_domain_id: 'default', project_domain_id: 'default', ...extra,
} }), 'neutron');

const noauth = (extra: Record<string, string | number> = {}) =>
  new ServiceAdapter(new Config([], { neutron: { endpoint_override: `${base}/svc`, ...extra } }), 'neutron');

async function failure(call: Promise<unknown>): Promise<ServiceConnectFailure> {
  const err = await call.then(() => null, (e: unknown) => e);
  assert.ok(err instanceof ServiceConnectFailure, `expected ServiceConnectFailure, got ${String(err)}`);
  return err;
}

describe('ServiceAdapter.fetch', () => {
  it('sends a path below the catalog endpoint with the service token', async () => {
    const res = await authenticated().fetch('/thing', { headers: { Accept: 'application/json' } });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { ok: '/svc/thing' });
    assert.equal(issued, 1);
    assert.deepEqual(seen, [{ token: `${TOKEN_PREFIX}1`, body: '' }]);
  });

  it('answers a 401 with one fresh token and one resend of the same request', async () => {
    const res = await authenticated().fetch(`${base}/svc/revoked`, { method: 'POST', body: '{"a":1}' });
    assert.equal(res.status, 200);
    assert.equal(issued, 2);
    assert.deepEqual(seen, [{ token: `${TOKEN_PREFIX}1`, body: '{"a":1}' }, { token: `${TOKEN_PREFIX}2`, body: '{"a":1}' }]);
  });

  it('re-authenticates once only: a second 401 is the caller\'s answer', async () => {
    const res = await authenticated().fetch(`${base}/svc/refused`);
    assert.equal(res.status, 401);
    assert.equal(issued, 2);
    assert.deepEqual(seen.map((s) => s.token), [`${TOKEN_PREFIX}1`, `${TOKEN_PREFIX}2`]);
  });

  it('sends no token and does not re-authenticate without auth, or when asked not to', async () => {
    const res = await noauth().fetch('/revoked');
    assert.equal(res.status, 401);
    assert.deepEqual(seen, [{ token: '', body: '' }]);
    seen.length = 0;
    const unauthenticated = await authenticated({ endpoint_override: `${base}/svc` }).fetch('/revoked', { authenticated: false });
    assert.equal(unauthenticated.status, 401);
    assert.equal(issued, 0);
    assert.deepEqual(seen, [{ token: '', body: '' }]);
  });

  it('gives up after [group]timeout with ServiceConnectFailure, the token in no part of it', { timeout: HANG_BOUND_MS }, async () => {
    const err = await failure(authenticated({ timeout: 1 }).fetch('/hang'));
    assert.equal(err.timedOut, true);
    assert.equal(err.url, `${base}/svc/hang`);
    assert.equal(err.message, `Unable to establish connection to ${base}/svc/hang: ${err.reason}`);
    assert.deepEqual(seen, [{ token: `${TOKEN_PREFIX}1`, body: '' }]);
    assert.ok(!`${err.message} ${err.stack} ${String(err.original)}`.includes(TOKEN_PREFIX));
  });

  it('applies [group]timeout to an unauthenticated endpoint_override too', { timeout: HANG_BOUND_MS }, async () => {
    const adapter = noauth({ timeout: 1 });
    assert.equal(adapter.session, null);
    const err = await failure(adapter.fetch('/hang'));
    assert.equal(err.timedOut, true);
    assert.deepEqual(seen, [{ token: '', body: '' }]);
  });

  it('reports a refused connection as ServiceConnectFailure with the socket\'s reason', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const url = `http://127.0.0.1:${port}/v2.0/ports`;
    const err = await failure(noauth().fetch(url));
    assert.equal(err.timedOut, false);
    assert.match(err.message, new RegExp(`^Unable to establish connection to ${url.replace(/\./g, '\\.')}: .*ECONNREFUSED`));
  });
});
