/**
 * rpc_transport = json-rpc: two conductors (hosts 127.0.0.2 and 127.0.0.3, each serving JSON-RPC on
 * the same [json_rpc]port of its own address, as Ironic addresses conductors by host name) behind
 * one API-side client; routing by the hash ring, typed errors, the protocol's edges and
 * http_basic authentication.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { startConductorService, ConductorService } from '../../src/conductor/service';
import { createConductorClient, serveConductorRpc, ConductorClient, RpcServer } from '../../src/rpc';
import { RingManager } from '../../src/rpc/ring-manager';
import { InvalidStateRequested, IronicError, NodeNotFound, NodeTraitNotFound, UnsupportedDriverExtension } from '../../src/common/errors';
import { hashSync } from 'bcrypt';
import type { Overrides } from '../../src/conf/config';
import { makeConf, sqliteDb, TempDb } from '../conductor/support';
import { makeTestPki } from '../protocols/redfish/helpers/pki';
import { JsonRpcCaller } from '../../src/rpc/json-rpc-client';
import { CallLog, checkRingRouting, recording } from './support';

const HOSTS = ['127.0.0.2', '127.0.0.3'];
let port = 0;
let tmp: TempDb;
const services: ConductorService[] = [];
const servers: RpcServer[] = [];
let client: ConductorClient;
const calls: CallLog = new Map();

/** A port free on both conductor addresses. */
async function freePortOn(hosts: string[]): Promise<number> {
  for (;;) {
    const candidate = await new Promise<number>((resolve, reject) => {
      const s = net.createServer().once('error', reject).listen(0, hosts[0], () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const free = await Promise.all(hosts.map((h) => new Promise<boolean>((resolve) => {
      const s = net.createServer().once('error', () => resolve(false)).listen(candidate, h, () => s.close(() => resolve(true)));
    })));
    if (free.every(Boolean)) return candidate;
  }
}

function rpcConf(host: string, extra: Overrides = {}) {
  return makeConf(host, {
    DEFAULT: { rpc_transport: 'json-rpc', auth_strategy: 'noauth', ...(extra.DEFAULT ?? {}) },
    json_rpc: { host_ip: host, port, timeout: 30, ...(extra.json_rpc ?? {}) },
  });
}

async function post(host: string, body: string | undefined, method = 'POST', headers: Record<string, string> = {}):
  Promise<{ status: number; json: unknown }> {
  const res = await fetch(`http://${host}:${port}`, { method, body, headers: { 'Content-Type': 'application/json', ...headers } });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) as unknown : null };
}

/** Earlier tests served this address too: a pooled keep-alive socket to their closed server would fail. */
function postOnNewConnection(host: string, body: string): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host, port, method: 'POST', agent: false, headers: { 'Content-Type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

before(async () => {
  port = await freePortOn([...HOSTS, '127.0.0.4']);
  tmp = await sqliteDb();
  for (const host of HOSTS) {
    const svc = await startConductorService({ conf: rpcConf(host), db: tmp.db });
    services.push(svc);
    servers.push(await serveConductorRpc(rpcConf(host), recording(calls, host, svc.api)));
  }
  client = await createConductorClient({ conf: rpcConf('api-host'), db: tmp.db });
});

after(async () => {
  await client?.close();
  for (const s of servers) await s.close();
  for (const s of services) await s.stop();
  await tmp?.cleanup();
});

test('calls reach the conductor owning the node on the hash ring, at http://<host>:[json_rpc]port', async () => {
  const rings = new RingManager(rpcConf('observer'), tmp.db);
  const { owners } = await checkRingRouting(client, rings, tmp.db, calls, HOSTS);
  assert.deepEqual([...owners].sort(), HOSTS);
  // A call no node routes goes to some live conductor.
  const props = await client.getDriverProperties('fake-hardware');
  assert.equal(typeof props, 'object');
});

test('Ironic errors come back as the same typed classes with their codes', async () => {
  const uuid = randomUUID();
  await client.createNode({ uuid, name: `e-${uuid.slice(0, 8)}`, driver: 'fake-hardware' });
  await assert.rejects(client.doProvisioningAction(uuid, 'provide'), (err: unknown) => {
    assert.ok(err instanceof InvalidStateRequested, String(err));
    assert.equal((err as IronicError).code, 400);
    assert.match((err as Error).message, /can not be performed on node/);
    return true;
  });
  await assert.rejects(client.removeNodeTraits(uuid, ['CUSTOM_MISSING']), NodeTraitNotFound);
});

test('virtual media calls travel as every other method: the list, its typed refusal, attach and detach', async () => {
  const uuid = randomUUID();
  await client.createNode({ uuid, driver: 'fake-hardware' });
  await assert.rejects(client.getVirtualMedia(uuid), (err: unknown) => {
    assert.ok(err instanceof UnsupportedDriverExtension, String(err));
    assert.equal((err as IronicError).message,
      'Driver fake-hardware does not support get_virtual_media (disabled or not implemented).');
    return true;
  });
  await client.attachVirtualMedia(uuid, 'cdrom', 'http://127.0.0.1:9/boot.iso');
  await assert.rejects(client.attachVirtualMedia(randomUUID(), 'disk', 'http://127.0.0.1:9/d.img'), NodeNotFound);
  // The attach's worker holds the node for a moment: NodeLocked until it is done.
  let detached: unknown = 'not tried';
  for (let i = 0; i < 200 && detached !== 'ok'; i++) {
    detached = await client.detachVirtualMedia(uuid, ['cdrom']).then(() => 'ok', (err: unknown) => err);
    if (detached !== 'ok') await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.equal(detached, 'ok');
  const served = [...calls.values()].filter((log) => log.includes(`detachVirtualMedia:${uuid}`));
  assert.equal(served.length, 1);
});

test('the server speaks JSON-RPC 2.0: POST only, parse and request errors, unknown methods, notifications', async () => {
  const host = HOSTS[0];
  let res = await post(host, undefined, 'GET');
  assert.equal(res.status, 405);
  assert.deepEqual(res.json, { error: { code: 405, message: 'Only POST method can be used' } });
  res = await post(host, '{not json');
  assert.deepEqual(res.json, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Request parse error' } });
  res = await post(host, JSON.stringify({ jsonrpc: '1.0', method: 'getDriverProperties', id: 1 }));
  assert.deepEqual(res.json, { jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'Invalid request' } });
  res = await post(host, JSON.stringify({ jsonrpc: '2.0', method: 'getDriverProperties', params: ['x'], id: 2 }));
  assert.deepEqual(res.json, { jsonrpc: '2.0', id: 2, error: { code: -32600, message: 'Invalid request' } });
  res = await post(host, JSON.stringify({ jsonrpc: '2.0', method: 'frobnicate', params: {}, id: 3 }));
  assert.deepEqual(res.json, { jsonrpc: '2.0', id: 3, error: { code: -32601, message: 'Method frobnicate was not found' } });
  res = await post(host, JSON.stringify({ jsonrpc: '2.0', method: 'doProvisioningAction', params: { args: [randomUUID(), 'manage'] }, id: 4 }));
  const error = (res.json as { error: { code: number; data: { class: string } } }).error;
  assert.equal(error.code, 404);
  assert.equal(error.data.class, 'ironic.common.exception.NodeNotFound');
  res = await post(host, JSON.stringify({ jsonrpc: '2.0', method: 'getDriverProperties', params: { args: ['fake-hardware'] } }));
  assert.equal(res.status, 204);
  assert.equal(res.json, null);
});

test('http_basic: the server checks [json_rpc]http_basic_auth_user_file, the client sends [json_rpc] credentials', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'json-rpc-basic-'));
  const file = path.join(dir, 'htpasswd');
  fs.writeFileSync(file, `rpcuser:${hashSync('rpcpass', 4)}\n`);
  const host = '127.0.0.4';
  const serverConf = rpcConf(host, { json_rpc: { auth_strategy: 'http_basic', http_basic_auth_user_file: file } });
  const svc = await startConductorService({ conf: serverConf, db: tmp.db });
  const server = await serveConductorRpc(serverConf, svc.api);
  try {
    const anonymous = await post(host, JSON.stringify({ jsonrpc: '2.0', method: 'getDriverProperties', params: { args: ['fake-hardware'] }, id: 1 }));
    assert.equal(anonymous.status, 401);
    assert.deepEqual(anonymous.json, { error: { code: 401, message: 'Authorization required' } });
    const wrong = new JsonRpcCaller(rpcConf('api', { json_rpc: { auth_type: 'http_basic', username: 'rpcuser', password: 'nope' } }));
    await assert.rejects(wrong.call(host, 'getDriverProperties', ['fake-hardware']), /HTTP 401/);
    const right = new JsonRpcCaller(rpcConf('api', { json_rpc: { auth_type: 'http_basic', username: 'rpcuser', password: 'rpcpass' } }));
    const props = await right.call(host, 'getDriverProperties', ['fake-hardware']);
    assert.equal(typeof props, 'object');
  } finally {
    await server.close();
    await svc.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a call body over twice [api]max_json_body_size_provision is refused with 413 and the server goes on serving', async () => {
  const host = '127.0.0.4';
  const serverConf = makeConf(host, {
    DEFAULT: { rpc_transport: 'json-rpc', auth_strategy: 'noauth' },
    json_rpc: { host_ip: host, port, timeout: 30 },
    api: { max_json_body_size_provision: 1024 },
  });
  const svc = await startConductorService({ conf: serverConf, db: tmp.db });
  const server = await serveConductorRpc(serverConf, svc.api);
  try {
    const call = (filler: string) => JSON.stringify({ jsonrpc: '2.0', method: 'getDriverProperties', params: { args: ['fake-hardware'], filler }, id: 1 });
    const big = await postOnNewConnection(host, call('x'.repeat(4096)));
    assert.equal(big.status, 413);
    assert.deepEqual(big.json, { error: { code: 413, message: 'Request body is larger than the limit of 2048 bytes' } });
    const small = await postOnNewConnection(host, call('x'));
    assert.equal(small.status, 200);
    assert.equal(typeof (small.json as { result: unknown }).result, 'object');
  } finally {
    await server.close();
    await svc.stop();
  }
});

test('use_ssl: HTTPS with the [ssl] certificate; the client checks it against [json_rpc]cafile unless insecure', async () => {
  const pki = makeTestPki();
  const tlsPort = await freePortOn(['127.0.0.1']);
  const tlsConf = (host: string, json: Overrides[string]) => makeConf(host, {
    DEFAULT: { rpc_transport: 'json-rpc', auth_strategy: 'noauth' },
    json_rpc: { host_ip: '127.0.0.1', port: tlsPort, timeout: 30, use_ssl: true, ...json },
    ssl: { cert_file: path.join(pki.dir, 'server.pem'), key_file: path.join(pki.dir, 'server.key') },
  });
  const svc = await startConductorService({ conf: tlsConf('127.0.0.1', {}), db: tmp.db });
  const server = await serveConductorRpc(tlsConf('127.0.0.1', {}), svc.api);
  try {
    const trusting = new JsonRpcCaller(tlsConf('api', { cafile: pki.caPath }));
    assert.equal(trusting.urlFor('127.0.0.1'), `https://127.0.0.1:${tlsPort}`);
    assert.equal(typeof await trusting.call('127.0.0.1', 'getDriverProperties', ['fake-hardware']), 'object');
    const untrusting = new JsonRpcCaller(tlsConf('api', {}));
    await assert.rejects(untrusting.call('127.0.0.1', 'getDriverProperties', ['fake-hardware']), /certificate/i);
    const insecure = new JsonRpcCaller(tlsConf('api', { insecure: true }));
    assert.equal(typeof await insecure.call('127.0.0.1', 'getDriverProperties', ['fake-hardware']), 'object');
  } finally {
    await server.close();
    await svc.stop();
    pki.cleanup();
  }
});
