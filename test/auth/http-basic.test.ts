/**
 * auth_strategy = http_basic under attack, over real sockets: wrong passwords are checked off the
 * event loop, an unknown user costs a bcrypt check like a known one, and a client that keeps
 * failing is answered 429 without any bcrypt work, on the API and the JSON-RPC server alike.
 */
import { describe, it, before, after, beforeEach, mock } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import bcrypt from 'bcrypt';
import { Config } from '../../src/conf/config';
import { costOf } from '../../src/auth/bcrypt-digest';
import { DEFAULT_LIMITS } from '../../src/auth/failure-limiter';
import { serveJsonRpc } from '../../src/rpc/json-rpc-server';
import type { ConductorApi } from '../../src/rpc/conductor-api';
import { startTestServer, TestServer } from '../api/support/server';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'http-basic-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

/** An htpasswd file with one user at this cost. */
function htpasswd(name: string, cost: number): { file: string; digest: string } {
  const digest = bcrypt.hashSync('right password', cost);
  const file = path.join(dir, name);
  fs.writeFileSync(file, `operator:${digest}\n`);
  return { file, digest };
}

function basic(user: string, password: string): Record<string, string> {
  return { Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` };
}

function httpBasicServer(file: string): Promise<TestServer> {
  return startTestServer({ DEFAULT: { auth_strategy: 'http_basic', http_basic_auth_user_file: file } });
}

const V = '1.82';

describe('http_basic', () => {
  let compare: ReturnType<typeof mock.method<typeof bcrypt, 'compare'>>;
  before(() => {
    compare = mock.method(bcrypt, 'compare');
  });
  beforeEach(() => compare.mock.resetCalls());
  after(() => compare.mock.restore());

  it('checks a flood of wrong passwords off the event loop', async () => {
    const { file, digest } = htpasswd('flood', 12);
    const s = await httpBasicServer(file);
    try {
      // Warm up the client and server (first-use module loading is no part of the measure).
      assert.equal((await s.request('GET', '/v1')).status, 200);
      // What one check costs when it runs on the event loop, measured in this process.
      const start = performance.now();
      assert.equal(bcrypt.compareSync('wrong', digest), false);
      const oneCheckNs = (performance.now() - start) * 1e6;
      const delay = monitorEventLoopDelay({ resolution: 1 });
      const flood = DEFAULT_LIMITS.maxFailures - 1;
      delay.enable();
      const answers = await Promise.all(Array.from({ length: flood }, (_, i) =>
        s.request('GET', '/v1/nodes', { version: V, headers: basic('operator', `wrong ${i}`) })));
      delay.disable();
      assert.deepEqual(answers.map((r) => r.status), Array(flood).fill(401));
      // A check on the event loop would hold it for (nearly) a whole check, each time.
      assert.ok(delay.max < oneCheckNs / 2, `event loop held ${delay.max / 1e6} ms; one check takes ${oneCheckNs / 1e6} ms`);
      assert.equal(compare.mock.callCount(), flood);
      const right = await s.request('GET', '/v1/nodes', { version: V, headers: basic('operator', 'right password') });
      assert.equal(right.status, 200);
    } finally {
      await s.stop();
    }
  });

  it('an unknown user costs one bcrypt check of the file\'s cost, as a known user\'s wrong password does', async () => {
    const { file, digest } = htpasswd('unknown', 5);
    const s = await httpBasicServer(file);
    try {
      const unknown = await s.request('GET', '/v1/nodes', { version: V, headers: basic('nobody', 'right password') });
      assert.equal(unknown.status, 401);
      assert.deepEqual(JSON.parse(unknown.text), { error: { message: 'Incorrect username or password', code: 401 } });
      assert.equal(compare.mock.callCount(), 1);
      const [, decoy] = compare.mock.calls[0].arguments;
      assert.equal(costOf(decoy), 5);
      assert.notEqual(decoy, digest);
      const known = await s.request('GET', '/v1/nodes', { version: V, headers: basic('operator', 'wrong') });
      assert.equal(known.status, 401);
      assert.equal(compare.mock.callCount(), 2);
    } finally {
      await s.stop();
    }
  });

  it('after too many failures a client gets 429 with Retry-After and costs no bcrypt check', async () => {
    const { file } = htpasswd('limited', 4);
    const s = await httpBasicServer(file);
    try {
      for (let i = 0; i < DEFAULT_LIMITS.maxFailures; i++) {
        const r = await s.request('GET', '/v1/nodes', { version: V, headers: basic(i % 2 ? 'operator' : 'nobody', 'wrong') });
        assert.equal(r.status, 401);
      }
      assert.equal(compare.mock.callCount(), DEFAULT_LIMITS.maxFailures);
      // Refused even with the right password: nothing is checked until the window ends.
      for (const password of ['wrong', 'right password']) {
        const r = await s.request('GET', '/v1/nodes', { version: V, headers: basic('operator', password) });
        assert.equal(r.status, 429);
        const retryAfter = Number(r.headers.get('retry-after'));
        assert.ok(retryAfter >= 1 && retryAfter <= DEFAULT_LIMITS.windowMs / 1000, String(retryAfter));
        assert.deepEqual(JSON.parse(r.text), {
          error: { message: `Too many failed authentication attempts, retry in ${retryAfter} seconds`, code: 429 },
        });
        assert.equal(r.headers.get('www-authenticate'), null);
      }
      assert.equal(compare.mock.callCount(), DEFAULT_LIMITS.maxFailures);
      // Public routes need no credentials.
      assert.equal((await s.request('GET', '/v1')).status, 200);
    } finally {
      await s.stop();
    }
  });

  it('successes are not counted against a client', async () => {
    const { file } = htpasswd('successes', 4);
    const s = await httpBasicServer(file);
    try {
      for (let i = 0; i < DEFAULT_LIMITS.maxFailures * 2; i++) {
        const r = await s.request('GET', '/v1/nodes', { version: V, headers: basic('operator', 'right password') });
        assert.equal(r.status, 200);
      }
      for (let i = 0; i < DEFAULT_LIMITS.maxFailures; i++) {
        assert.equal((await s.request('GET', '/v1/nodes', { version: V, headers: basic('operator', 'wrong') })).status, 401);
      }
      assert.equal((await s.request('GET', '/v1/nodes', { version: V, headers: basic('operator', 'wrong') })).status, 429);
    } finally {
      await s.stop();
    }
  });

  it('the JSON-RPC server limits failures the same way', async () => {
    const { file } = htpasswd('json-rpc', 4);
    const server = await serveJsonRpc(new Config([], {
      DEFAULT: { auth_strategy: 'http_basic' },
      json_rpc: { host_ip: '127.0.0.1', port: 0, http_basic_auth_user_file: file },
    }), {} as ConductorApi);
    const call = () => fetch(server.url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...basic('operator', 'wrong') },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'getDriverProperties', params: { args: ['fake-hardware'] }, id: 1 }) });
    try {
      for (let i = 0; i < DEFAULT_LIMITS.maxFailures; i++) {
        const r = await call();
        assert.equal(r.status, 401);
        await r.arrayBuffer();
      }
      const refused = await call();
      assert.equal(refused.status, 429);
      const retryAfter = Number(refused.headers.get('retry-after'));
      assert.ok(retryAfter >= 1, String(retryAfter));
      assert.deepEqual(await refused.json(), {
        error: { code: 429, message: `Too many failed authentication attempts, retry in ${retryAfter} seconds` },
      });
      assert.equal(compare.mock.callCount(), DEFAULT_LIMITS.maxFailures);
    } finally {
      await server.close();
    }
  });
});
