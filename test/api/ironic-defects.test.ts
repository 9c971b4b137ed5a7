/**
 * Defects found when ironic-ts was tried with suites written for Ironic (issue 13), each checked
 * against what Ironic 21.4.4 and 29.0.5 answer: an instance's allocation goes at tear down and
 * with its node, pecan's /nodes/states/... attribute routes, traits below 1.37 and the 50-trait
 * limit, and the 413 of a body over the size limit.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { countRows, faultOf, makeNode } from './support/fixtures';
import { startTestServer, TestServer } from './support/server';

const V = '1.82';

describe('defects found by Ironic suites', () => {
  let s: TestServer;

  before(async () => {
    s = await startTestServer();
  });

  after(async () => s.stop());

  async function poll<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
    for (let i = 0; i < 200; i++) {
      const value = await read();
      if (done(value)) return value;
      await sleep(50);
    }
    throw new Error('condition not reached');
  }

  async function node(ident: string): Promise<Record<string, unknown>> {
    const res = await s.request('GET', `/v1/nodes/${ident}`, { version: V });
    assert.equal(res.status, 200, res.text);
    return res.json;
  }

  /** An available fake node allocated through the API; returns the allocation's uuid. */
  async function allocate(name: string): Promise<string> {
    await makeNode(s.db, { name, resource_class: `rc-${name}`, provision_state: 'available', power_state: 'power off' });
    const res = await s.request('POST', '/v1/allocations', { version: V, body: { resource_class: `rc-${name}` } });
    assert.equal(res.status, 201, res.text);
    const done = await poll(async () => (await s.request('GET', `/v1/allocations/${res.json.uuid}`, { version: V })).json,
      (a: { state: string }) => a.state !== 'allocating');
    assert.equal(done.state, 'active', JSON.stringify(done));
    return res.json.uuid;
  }

  it('undeploy removes the instance\'s allocation', async () => {
    const allocation = await allocate('td-node');
    const deploy = await s.request('PUT', '/v1/nodes/td-node/states/provision', { version: V, body: { target: 'active' } });
    assert.equal(deploy.status, 202, deploy.text);
    await poll(() => node('td-node'), (n) => n.provision_state === 'active');
    assert.equal((await node('td-node')).allocation_uuid, allocation);
    const undeploy = await s.request('PUT', '/v1/nodes/td-node/states/provision', { version: V, body: { target: 'deleted' } });
    assert.equal(undeploy.status, 202, undeploy.text);
    const done = await poll(() => node('td-node'), (n) => n.provision_state === 'available');
    assert.equal(done.allocation_uuid, null);
    assert.equal(done.instance_uuid, null);
    assert.equal((await s.request('GET', `/v1/allocations/${allocation}`, { version: V })).status, 404);
  });

  it('deleting a node deletes its allocation instead of failing on the foreign key', async () => {
    const allocation = await allocate('del-node');
    await s.request('PATCH', '/v1/nodes/del-node', { version: V, body: [{ op: 'replace', path: '/maintenance', value: true }] });
    const res = await s.request('DELETE', '/v1/nodes/del-node', { version: V });
    assert.equal(res.status, 204, res.text);
    assert.equal((await s.request('GET', `/v1/allocations/${allocation}`, { version: V })).status, 404);
    assert.equal((await s.request('GET', '/v1/nodes/del-node', { version: V })).status, 404);
  });

  it('serves /v1/nodes/states/{node} and /v1/nodes/states/console/{node} as pecan routes them', async () => {
    const made = await makeNode(s.db, { name: 'console-node' });
    const states = await s.request('GET', `/v1/nodes/states/${made.uuid}`, { version: V });
    assert.equal(states.status, 200, states.text);
    assert.equal(states.json.provision_state, 'enroll');
    const console = await s.request('GET', '/v1/nodes/states/console/console-node', { version: V });
    assert.equal(console.status, 200, console.text);
    assert.deepEqual(console.json, { console_enabled: false, console_info: null });
    const enable = await s.request('PUT', '/v1/nodes/states/console/console-node', { version: V, body: { enabled: true } });
    assert.equal(enable.status, 202, enable.text);
    assert.match(enable.headers.get('location') ?? '', /\/v1\/nodes\/console-node\/states\/console$/);
  });

  it('PUT on traits below 1.37 is the nodes controller\'s 405', async () => {
    const made = await makeNode(s.db, { name: 'old-traits' });
    for (const path of [`/v1/nodes/${made.uuid}/traits`, `/v1/nodes/${made.uuid}/traits/CUSTOM_A`]) {
      const res = await s.request('PUT', path, { version: '1.36', body: { traits: ['CUSTOM_A'] } });
      assert.equal(res.status, 405, res.text);
      assert.equal(res.headers.get('allow'), 'DELETE, GET, PATCH, POST');
    }
  });

  it('refuses a 51st trait on set and on add, writing nothing', async () => {
    const made = await makeNode(s.db, { name: 'many-traits' });
    const traits = (n: number) => Array.from({ length: n }, (_, i) => `CUSTOM_T${i}`);
    const message = `Could not modify traits for node ${made.id} as it would exceed the maximum number of traits per node (51 vs. 50)`;
    const tooMany = await s.request('PUT', '/v1/nodes/many-traits/traits', { version: V, body: { traits: traits(51) } });
    assert.equal(tooMany.status, 400, tooMany.text);
    assert.equal(faultOf(tooMany.json), message);
    assert.equal(await countRows(s.db, 'node_traits'), 0);
    const fifty = await s.request('PUT', '/v1/nodes/many-traits/traits', { version: V, body: { traits: [...traits(50), 'CUSTOM_T0'] } });
    assert.equal(fifty.status, 204, fifty.text);
    const added = await s.request('PUT', '/v1/nodes/many-traits/traits/CUSTOM_X', { version: V });
    assert.equal(added.status, 400, added.text);
    assert.equal(faultOf(added.json), message);
    const again = await s.request('PUT', '/v1/nodes/many-traits/traits/CUSTOM_T7', { version: V });
    assert.equal(again.status, 204, again.text);
    const listed = await s.request('GET', '/v1/nodes/many-traits/traits', { version: V });
    assert.equal(listed.json.traits.length, 50);
  });

  it('a body over the size limit gets 413 with the version headers every Ironic response carries', async () => {
    const body = JSON.stringify({ driver: 'fake-hardware', extra: { blob: 'x'.repeat(1024 * 1024) } });
    const res = await s.request('POST', '/v1/nodes', { version: '1.50', body });
    assert.equal(res.status, 413, res.text);
    assert.equal(res.headers.get('x-openstack-ironic-api-version'), '1.50');
    assert.equal(res.headers.get('x-openstack-ironic-api-minimum-version'), '1.1');
    assert.ok(res.headers.get('x-openstack-ironic-api-maximum-version'));
    assert.match(res.headers.get('openstack-request-id') ?? '', /^req-/);
  });
});
