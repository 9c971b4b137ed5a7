import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, TestServer } from './support/server';
import { faultOf, heartbeatConductor, makeNode } from './support/fixtures';

const V = '1.96';
const PARENT = '11111111-1111-4111-8111-111111111111';

const uuidsOf = (json: unknown): string[] => ((json as { nodes: { uuid: string }[] }).nodes).map((n) => n.uuid);

describe('child nodes (1.83) and disable_power_off (1.95)', () => {
  let s: TestServer;
  let child: string;
  before(async () => {
    s = await startTestServer();
    await heartbeatConductor(s.db);
    await makeNode(s.db, { uuid: PARENT, name: 'parent' });
    await makeNode(s.db, { name: 'other-owner', owner: 'p2' });
  });
  after(async () => { await s.stop(); });

  it('creates a child by the parent\'s name, stores the parent\'s UUID and refuses what Ironic refuses', async () => {
    const r = await s.request('POST', '/v1/nodes', { version: V, body: { driver: 'fake-hardware', name: 'kid', parent_node: 'parent' } });
    assert.equal(r.status, 201);
    assert.equal(r.json.parent_node, PARENT);
    child = r.json.uuid as string;
    const refusals: [unknown, string, number, string][] = [
      [{ driver: 'fake-hardware', parent_node: 'nope' }, V, 400,
        "Unable to apply the requested parent_node 'nope'. Requested value was invalid."],
      // Another owner's node is refused with the same words, so its existence is not disclosed.
      [{ driver: 'fake-hardware', parent_node: 'other-owner' }, V, 400,
        "Unable to apply the requested parent_node 'other-owner'. Requested value was invalid."],
      [{ driver: 'fake-hardware', parent_node: `${PARENT}x` }, V, 400, `Schema error for node: '${PARENT}x' is too long`],
      [{ driver: 'fake-hardware', parent_node: 'parent' }, '1.82', 406, 'Request not acceptable.'],
    ];
    for (const [body, version, status, message] of refusals) {
      const bad = await s.request('POST', '/v1/nodes', { version, body });
      assert.equal(bad.status, status, JSON.stringify(body));
      assert.equal(faultOf(bad.json), message);
    }
  });

  it('hides children from lists unless asked for, at every version', async () => {
    assert.ok(!uuidsOf((await s.request('GET', '/v1/nodes', { version: V })).json).includes(child));
    assert.ok(!uuidsOf((await s.request('GET', '/v1/nodes', { version: '1.1' })).json).includes(child));
    assert.ok(uuidsOf((await s.request('GET', '/v1/nodes?include_children=true', { version: V })).json).includes(child));
    assert.deepEqual(uuidsOf((await s.request('GET', `/v1/nodes?parent_node=${PARENT}`, { version: V })).json), [child]);
    // The filter compares the stored UUID: a name matches nothing.
    assert.deepEqual(uuidsOf((await s.request('GET', '/v1/nodes?parent_node=parent', { version: V })).json), []);
    // include_children wins over parent_node.
    assert.equal(uuidsOf((await s.request('GET', '/v1/nodes?include_children=1&parent_node=parent', { version: V })).json).length, 3);
    const old = await s.request('GET', '/v1/nodes?include_children=true', { version: '1.82' });
    assert.equal(old.status, 406);
    assert.equal(faultOf(old.json), 'Request not acceptable. The minimal required API version should be 1.83');
    const bad = await s.request('GET', '/v1/nodes?include_children=maybe', { version: V });
    assert.equal(bad.status, 400);
    // /detail takes the arguments unchecked, as text: any non-empty include_children shows children.
    assert.ok(uuidsOf((await s.request('GET', '/v1/nodes/detail?include_children=false', { version: '1.50' })).json).includes(child));
  });

  it('lists a node\'s children with a link to the filtered list', async () => {
    const r = await s.request('GET', '/v1/nodes/parent/children', { version: '1.83' });
    assert.equal(r.status, 200);
    assert.deepEqual(r.json.children, [child]);
    assert.equal(r.json.links.rel, 'children');
    assert.match(r.json.links.href as string, new RegExp(`/v1/nodes\\?parent_node=${PARENT}$`));
    assert.deepEqual((await s.request('GET', '/v1/nodes/kid/children', { version: V })).json.children, []);
    assert.equal((await s.request('GET', '/v1/nodes/parent/children', { version: '1.82' })).status, 404);
    assert.equal(faultOf((await s.request('GET', '/v1/nodes/nope/children', { version: V })).json), 'Node nope could not be found.');
    const deeper = await s.request('GET', '/v1/nodes/parent/children/kid', { version: V });
    assert.equal(deeper.status, 405);
    assert.equal(deeper.headers.get('allow'), 'GET');
  });

  it('sets parent_node by PATCH (add/replace resolve the node, remove clears it)', async () => {
    const other = await makeNode(s.db, { name: 'orphan' });
    const set = await s.request('PATCH', '/v1/nodes/orphan', { version: V, body: [{ op: 'add', path: '/parent_node', value: 'parent' }] });
    assert.equal(set.status, 200);
    assert.equal(set.json.parent_node, PARENT);
    for (const [value, shown] of [[null, 'None'], [5, '5'], ['', ''], ['nope', 'nope']] as const) {
      const bad = await s.request('PATCH', '/v1/nodes/orphan', { version: V, body: [{ op: 'replace', path: '/parent_node', value }] });
      assert.equal(bad.status, 400);
      assert.equal(faultOf(bad.json), `Unable to apply the requested parent_node '${shown}'. Requested value was invalid.`);
    }
    // A PATCH that does not name parent_node leaves it alone.
    const other2 = await s.request('PATCH', '/v1/nodes/orphan', { version: V, body: [{ op: 'add', path: '/extra/a', value: 1 }] });
    assert.equal(other2.json.parent_node, PARENT);
    const cleared = await s.request('PATCH', '/v1/nodes/orphan', { version: V, body: [{ op: 'remove', path: '/parent_node' }] });
    assert.equal(cleared.json.parent_node, null);
    assert.equal((await s.request('PATCH', `/v1/nodes/${other.uuid}`, {
      version: '1.82', body: [{ op: 'add', path: '/parent_node', value: 'parent' }],
    })).status, 406);
  });

  it('deleting a parent leaves its children, still hidden from the default list', async () => {
    const p = await makeNode(s.db, { name: 'doomed' });
    const kid = await s.request('POST', '/v1/nodes', { version: V, body: { driver: 'fake-hardware', parent_node: 'doomed' } });
    assert.equal((await s.request('DELETE', '/v1/nodes/doomed', { version: V })).status, 204);
    const shown = await s.request('GET', `/v1/nodes/${kid.json.uuid}`, { version: V });
    assert.equal(shown.json.parent_node, p.uuid);
    assert.ok(!uuidsOf((await s.request('GET', '/v1/nodes', { version: V })).json).includes(kid.json.uuid as string));
  });

  it('shows disable_power_off from 1.95 and refuses powering such a node off', async () => {
    const r = await s.request('POST', '/v1/nodes', { version: V, body: { driver: 'fake-hardware', name: 'dpo', disable_power_off: 'yes' } });
    assert.equal(r.json.disable_power_off, true);
    assert.equal((await s.request('GET', '/v1/nodes/dpo', { version: '1.94' })).json.disable_power_off, undefined);
    assert.equal((await s.request('GET', '/v1/nodes/dpo?fields=disable_power_off', { version: '1.94' })).status, 406);
    assert.equal((await s.request('POST', '/v1/nodes', { version: '1.94', body: { driver: 'fake-hardware', disable_power_off: false } })).status, 406);
    for (const target of ['power off', 'soft power off']) {
      const off = await s.request('PUT', '/v1/nodes/dpo/states/power', { version: V, body: { target } });
      assert.equal(off.status, 409);
      assert.equal(faultOf(off.json), `Failed to set node power state to ${target}.`);
    }
    assert.equal((await s.request('PUT', '/v1/nodes/dpo/states/power', { version: V, body: { target: 'rebooting' } })).status, 202);
    const nulled = await s.request('POST', '/v1/nodes', { version: V, body: { driver: 'fake-hardware', disable_power_off: null } });
    assert.equal(nulled.json.disable_power_off, false);
    const unset = await s.request('PATCH', '/v1/nodes/dpo', { version: V, body: [{ op: 'replace', path: '/disable_power_off', value: false }] });
    assert.equal(unset.json.disable_power_off, false);
  });
});
