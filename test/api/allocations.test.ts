import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestServer, TestServer } from './support/server';
import { countRows, faultOf, makeNode } from './support/fixtures';

const V = '1.82';

async function waitForState(s: TestServer, ident: string, done: (state: string) => boolean): Promise<Record<string, unknown>> {
  for (let i = 0; i < 100; i++) {
    const r = await s.request('GET', `/v1/allocations/${ident}`, { version: V });
    if (done(r.json.state)) return r.json;
    await sleep(50);
  }
  throw new Error(`allocation ${ident} stayed in progress`);
}

describe('/v1/allocations', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
    await makeNode(s.db, { name: 'alloc-a', resource_class: 'gold', provision_state: 'available', power_state: 'power off' });
    await makeNode(s.db, { name: 'alloc-b', resource_class: 'silver', provision_state: 'available', power_state: 'power off' });
    await makeNode(s.db, { name: 'alloc-active', resource_class: 'gold', provision_state: 'active', power_state: 'power on' });
  });
  after(async () => { await s.stop(); });

  it('allocates an available node of the resource class', async () => {
    const r = await s.request('POST', '/v1/allocations', { version: V, body: { name: 'a1', resource_class: 'gold', extra: { x: 1 } } });
    assert.equal(r.status, 201);
    assert.equal(r.json.state, 'allocating');
    assert.deepEqual(Object.keys(r.json), ['uuid', 'created_at', 'updated_at', 'candidate_nodes', 'extra', 'last_error', 'name',
      'owner', 'resource_class', 'state', 'traits', 'links', 'node_uuid']);
    const done = await waitForState(s, 'a1', (st) => st !== 'allocating');
    assert.equal(done.state, 'active');
    const node = await s.db.knex('nodes').where({ name: 'alloc-a' }).first('uuid', 'instance_uuid');
    assert.equal(done.node_uuid, node.uuid);
    assert.equal(node.instance_uuid, r.json.uuid);
  });

  it('records a failure when nothing matches', async () => {
    const r = await s.request('POST', '/v1/allocations', { version: V, body: { name: 'a2', resource_class: 'platinum' } });
    const done = await waitForState(s, r.json.uuid, (st) => st !== 'allocating');
    assert.equal(done.state, 'error');
    assert.equal(done.last_error, `Failed to process allocation ${r.json.uuid}: no available nodes match the resource class platinum.`);
  });

  it('refuses bad requests without writing', async () => {
    const before = await countRows(s.db, 'allocations');
    const cases: [unknown, string, number, string][] = [
      [{ name: 'x' }, V, 400, 'The resource_class field is mandatory when not backfilling'],
      [{ resource_class: 'gold', name: 'bad name' }, V, 400, "Cannot create allocation with invalid name 'bad name'"],
      [{ resource_class: 'gold', owner: 'p' }, '1.59', 406, 'Request not acceptable.'],
      [{ resource_class: 'gold', node: 'alloc-b' }, '1.57', 400, 'Cannot set node when creating an allocation in this API version'],
      [{ resource_class: 'gold', candidate_nodes: ['alloc-a', 'nosuch'] }, V, 400, 'Nodes cannot be found: nosuch'],
      [{ resource_class: 'gold', traits: ['bad'] }, V, 400,
        "Schema error for allocation: 'bad' is not valid under any of the given schemas. Possible root cause: 'bad' does not match '^CUSTOM_[A-Z0-9_]+$'"],
      [{ resource_class: 'gold', name: 'a1' }, V, 409, 'An allocation with name a1 already exists.'],
    ];
    for (const [body, version, status, message] of cases) {
      const r = await s.request('POST', '/v1/allocations', { version, body });
      assert.equal(r.status, status, JSON.stringify(body));
      assert.equal(faultOf(r.json), message);
    }
    const gated = await s.request('GET', '/v1/allocations', { version: '1.51' });
    assert.equal(gated.status, 404);
    assert.equal(await countRows(s.db, 'allocations'), before);
  });

  it('backfills an active node', async () => {
    const r = await s.request('POST', '/v1/allocations', { version: V, body: { node: 'alloc-active' } });
    assert.equal(r.status, 201);
    assert.equal(r.json.state, 'active');
    assert.equal(r.json.resource_class, 'gold');
  });

  it('lists with filters and paginates', async () => {
    const all = await s.request('GET', '/v1/allocations?fields=name,state', { version: V });
    assert.equal(all.json.allocations.length, 3);
    const errs = await s.request('GET', '/v1/allocations?state=error&fields=name', { version: V });
    assert.deepEqual(errs.json.allocations.map((a: { name: string }) => a.name), ['a2']);
    const byNode = await s.request('GET', '/v1/allocations?node=alloc-a&fields=name', { version: V });
    assert.deepEqual(byNode.json.allocations.map((a: { name: string }) => a.name), ['a1']);
    const page = await s.request('GET', '/v1/allocations?limit=1&fields=name', { version: V });
    assert.match(page.json.next, /\/v1\/allocations\?sort_key=id&sort_dir=asc&fields=name&limit=1&marker=/);
    const old = await s.request('GET', '/v1/allocations/a1', { version: '1.59' });
    assert.ok(!('owner' in old.json));
  });

  it('patches name and extra from 1.57 only', async () => {
    assert.equal((await s.request('PATCH', '/v1/allocations/a1', { version: '1.56', body: [] })).status, 405);
    const r = await s.request('PATCH', '/v1/allocations/a1', { version: V, body: [{ op: 'replace', path: '/name', value: 'a1b' }] });
    assert.equal(r.json.name, 'a1b');
    const bad = await s.request('PATCH', '/v1/allocations/a1b', { version: V, body: [{ op: 'replace', path: '/resource_class', value: 'x' }] });
    assert.equal(faultOf(bad.json), 'Cannot patch /resource_class. Only the following can be updated: name, extra');
  });

  it('deletes allocations, refusing an active node outside maintenance', async () => {
    const active = await s.db.knex('allocations').whereNotNull('node_id').orderBy('id', 'desc').first('uuid');
    const refused = await s.request('DELETE', `/v1/allocations/${active.uuid}`, { version: V });
    assert.equal(refused.status, 409);
    assert.match(faultOf(refused.json), /because the node is active \(and maintenance mode is off\)$/);
    assert.equal((await s.request('DELETE', '/v1/allocations/a1b', { version: V })).status, 204);
    const node = await s.db.knex('nodes').where({ name: 'alloc-a' }).first('instance_uuid', 'allocation_id');
    assert.deepEqual(node, { instance_uuid: null, allocation_id: null });
  });
});
