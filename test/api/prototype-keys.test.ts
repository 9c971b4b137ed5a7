/**
 * Issue 19, finding 1: keys such as `__proto__` and `constructor` in patch paths, bodies, query
 * arguments and sort keys are plain keys, as in Python: they never reach Object.prototype, and
 * each is answered as Ironic answers a key that is not there (400), never with a 500.
 */
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { startTestServer, TestServer } from './support/server';
import { faultOf } from './support/fixtures';

const V = '1.82';
const HOSTILE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];
let server: TestServer;
let uuid: string;

/** Own names and descriptors of the prototypes every query builder and view relies on. */
function prototypeSnapshot(): string {
  const protos = { Object: Object.prototype, Array: Array.prototype, Function: Function.prototype, String: String.prototype };
  return JSON.stringify(Object.entries(protos).map(([name, proto]) =>
    [name, Object.getOwnPropertyNames(proto).sort().map((key) => [key, typeof Object.getOwnPropertyDescriptor(proto, key)?.value])]));
}

const pristine = prototypeSnapshot();

before(async () => {
  server = await startTestServer();
  const created = await server.request('POST', '/v1/nodes', { version: V, body: { driver: 'fake-hardware', name: 'proto-node', extra: { keep: 1 } } });
  assert.equal(created.status, 201, created.text);
  uuid = created.json.uuid;
});

after(async () => {
  await server.stop();
  assert.equal(prototypeSnapshot(), pristine);
});

async function patchNode(patch: unknown[]) {
  return server.request('PATCH', `/v1/nodes/${uuid}`, { version: V, body: patch });
}

async function nodeStillServed(): Promise<void> {
  const res = await server.request('GET', `/v1/nodes/${uuid}`, { version: V });
  assert.equal(res.status, 200, res.text);
  const list = await server.request('GET', '/v1/nodes?fields=uuid,name', { version: V });
  assert.equal(list.status, 200, list.text);
  assert.ok(list.json.nodes.some((n: { uuid: string }) => n.uuid === uuid));
}

test('a patch path through __proto__ is a missing member, not the prototype', async () => {
  const res = await patchNode([{ op: 'add', path: '/extra/__proto__/polluted', value: 'PWNED' }]);
  assert.equal(res.status, 400, res.text);
  assert.match(faultOf(res.json), /member '__proto__' not found in \{'keep': 1\}/);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(prototypeSnapshot(), pristine);
  await nodeStillServed();
});

test('constructor, prototype and inherited names are missing members on every path walk', async () => {
  for (const key of HOSTILE_KEYS) {
    for (const patch of [
      { op: 'add', path: `/driver_info/${key}/prototype/x`, value: 1 },
      { op: 'replace', path: `/extra/${key}`, value: 1 },
      { op: 'remove', path: `/properties/${key}` },
      { op: 'copy', from: `/extra/${key}`, path: '/extra/copied' },
      { op: 'move', from: `/instance_info/${key}`, path: '/extra/moved' },
      { op: 'test', path: `/extra/${key}`, value: 1 },
    ]) {
      const res = await patchNode([patch]);
      assert.equal(res.status, 400, `${JSON.stringify(patch)}: ${res.text}`);
    }
  }
  assert.equal(prototypeSnapshot(), pristine);
  await nodeStillServed();
});

test('a root attribute named after a prototype member cannot be added', async () => {
  const chassis = await server.request('POST', '/v1/chassis', { version: V, body: { description: 'c' } });
  assert.equal(chassis.status, 201, chassis.text);
  for (const key of HOSTILE_KEYS) {
    const node = await patchNode([{ op: 'add', path: `/${key}`, value: { polluted: true } }]);
    assert.equal(node.status, 400, node.text);
    assert.match(faultOf(node.json), new RegExp(`^Cannot patch /${key}\\. Only the following can be updated`));
    const res = await server.request('PATCH', `/v1/chassis/${chassis.json.uuid}`,
      { version: V, body: [{ op: 'add', path: `/${key}`, value: { polluted: true } }] });
    assert.equal(res.status, 400, res.text);
    assert.match(faultOf(res.json), new RegExp(`^Cannot patch /${key}\\. Only the following can be updated: uuid, extra, description$`));
  }
  assert.equal(prototypeSnapshot(), pristine);
});

test('__proto__ added inside a dict is stored as an ordinary key, as a Python dict stores it', async () => {
  const res = await patchNode([{ op: 'add', path: '/extra/__proto__', value: { polluted: 'yes' } }]);
  assert.equal(res.status, 200, res.text);
  const shown = await server.request('GET', `/v1/nodes/${uuid}?fields=extra`, { version: V });
  assert.equal(shown.status, 200, shown.text);
  assert.ok(Object.hasOwn(shown.json.extra, '__proto__'), shown.text);
  assert.deepEqual(JSON.parse(JSON.stringify(shown.json.extra.__proto__)), { polluted: 'yes' });
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  const removed = await patchNode([{ op: 'remove', path: '/extra/__proto__' }]);
  assert.equal(removed.status, 200, removed.text);
  assert.equal(prototypeSnapshot(), pristine);
});

test('body keys named after prototype members are unexpected properties', async () => {
  for (const key of HOSTILE_KEYS) {
    const body = `{"driver": "fake-hardware", "${key}": {"polluted": true}}`;
    const res = await server.request('POST', '/v1/nodes', { version: V, body });
    assert.equal(res.status, 400, `${key}: ${res.text}`);
  }
  assert.equal(prototypeSnapshot(), pristine);
});

const LISTS = ['/v1/nodes', '/v1/nodes/detail', '/v1/ports', '/v1/ports/detail', '/v1/portgroups', '/v1/portgroups/detail',
  '/v1/chassis', '/v1/chassis/detail', '/v1/allocations', '/v1/deploy_templates', '/v1/volume/connectors', '/v1/volume/targets',
  '/v1/conductors'];

test('sort keys named after prototype members are invalid sort keys on every list', async () => {
  for (const list of LISTS) {
    for (const key of HOSTILE_KEYS) {
      const res = await server.request('GET', `${list}?sort_key=${encodeURIComponent(key)}`, { version: V });
      assert.equal(res.status, 400, `${list} ${key}: ${res.text}`);
    }
  }
  await nodeStillServed();
});

test('query arguments named __proto__ are unexpected arguments, even repeated', async () => {
  const res = await server.request('PUT', `/v1/nodes/${uuid}/states/power?__proto__=a&__proto__=b`,
    { version: V, body: { target: 'power on' } });
  assert.equal(res.status, 400, res.text);
  assert.match(faultOf(res.json), /Unexpected arguments: __proto__/);
  const list = await server.request('GET', '/v1/nodes?__proto__=a&__proto__=b', { version: V });
  assert.equal(list.status, 400, list.text);
  assert.equal(prototypeSnapshot(), pristine);
});

test('provision verbs and power targets named after prototype members are refused', async () => {
  for (const key of HOSTILE_KEYS) {
    const prov = await server.request('PUT', `/v1/nodes/${uuid}/states/provision`, { version: V, body: { target: key } });
    assert.equal(prov.status, 400, `${key}: ${prov.text}`);
    const power = await server.request('PUT', `/v1/nodes/${uuid}/states/power`, { version: V, body: { target: key } });
    assert.equal(power.status, 400, `${key}: ${power.text}`);
    const boot = await server.request('PUT', `/v1/nodes/${uuid}/management/boot_device`, { version: V, body: { boot_device: key } });
    assert.equal(boot.status, 400, `${key}: ${boot.text}`);
  }
  await nodeStillServed();
});
