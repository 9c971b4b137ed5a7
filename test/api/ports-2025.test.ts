import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, TestServer } from './support/server';
import { faultOf, heartbeatConductor, makeNode } from './support/fixtures';

const V = '1.96';
const NODE = '21111111-1111-4111-8111-111111111111';
const P1 = 'a1000000-0000-4000-8000-000000000001';
const OVN = { port_id: 'eth0', 'vtep-logical-switch': 'ls1', 'vtep-physical-switch': 'ps1' };

describe('ports: name (1.88), OVN VTEP links (1.90), node_ident (1.94)', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
    await heartbeatConductor(s.db);
    await makeNode(s.db, { uuid: NODE, name: 'node-a' });
  });
  after(async () => { await s.stop(); });

  it('creates named ports by node name or UUID and refuses what 29.0.5 refuses', async () => {
    const r = await s.request('POST', '/v1/ports', { version: V, body: { address: '52:54:00:00:00:01', node_ident: 'node-a', name: 'p1', uuid: P1 } });
    assert.equal(r.status, 201);
    assert.equal(r.json.node_uuid, NODE);
    assert.equal(r.json.name, 'p1');
    const refusals: [unknown, string, number, string][] = [
      // A duplicate name on create is reported, as Ironic reports it, as the new UUID being taken.
      [{ address: '52:54:00:00:00:02', node_uuid: NODE, name: 'p1', uuid: 'a1000000-0000-4000-8000-000000000002' }, V, 409,
        'A port with UUID a1000000-0000-4000-8000-000000000002 already exists.'],
      [{ address: '52:54:00:00:00:03', node_uuid: NODE, name: 'p3' }, '1.87', 406, 'Request not acceptable.'],
      [{ address: '52:54:00:00:00:03', node_ident: 'node-a' }, '1.93', 406, 'Request not acceptable.'],
      [{ address: '52:54:00:00:00:03', node_ident: 'nope' }, V, 400, 'Node None could not be found.'],
      [{ address: '52:54:00:00:00:03', node_ident: 'bad name!' }, V, 400, 'Expected a logical name or UUID but received bad name!.'],
      [{ address: '52:54:00:00:00:03' }, V, 400, "Schema error for port: {'address': '52:54:00:00:00:03'} is not valid under any " +
        "of the given schemas. Possible root cause: 'node_ident' is a required property"],
      [{ address: '52:54:00:00:00:03', node_ident: 'node-a', node_uuid: NODE }, V, 400, "Schema error for port: {'address': " +
        `'52:54:00:00:00:03', 'node_ident': 'node-a', 'node_uuid': '${NODE}'} is valid under each of {'required': ['node_uuid']}, ` +
        "{'required': ['node_ident']}"],
    ];
    for (const [body, version, status, message] of refusals) {
      const bad = await s.request('POST', '/v1/ports', { version, body });
      assert.equal(bad.status, status, JSON.stringify(body));
      assert.equal(faultOf(bad.json), message);
    }
  });

  it('finds ports by name or id at every version, shows the name from 1.88, renames with a duplicate refused', async () => {
    assert.equal((await s.request('GET', '/v1/ports/p1', { version: V })).json.uuid, P1);
    const old = await s.request('GET', '/v1/ports/p1', { version: '1.1' });
    assert.equal(old.json.uuid, P1);
    assert.equal(old.json.name, undefined);
    const id = (await s.db.knex('ports').where({ uuid: P1 }).first('id') as { id: number }).id;
    assert.equal((await s.request('GET', `/v1/ports/${id}`, { version: V })).json.uuid, P1);
    assert.equal(faultOf((await s.request('GET', '/v1/ports/nope', { version: V })).json), 'Port nope could not be found.');
    assert.equal((await s.request('GET', '/v1/ports/p1?fields=name', { version: '1.87' })).status, 406);
    assert.equal((await s.request('GET', '/v1/ports?sort_key=name', { version: '1.87' })).status, 406);
    await s.request('POST', '/v1/ports', { version: V, body: { address: '52:54:00:00:00:04', node_uuid: NODE, name: 'p4' } });
    const dup = await s.request('PATCH', '/v1/ports/p4', { version: V, body: [{ op: 'replace', path: '/name', value: 'p1' }] });
    assert.equal(dup.status, 409);
    assert.equal(faultOf(dup.json), 'A port with name p1 already exists.');
    const renamed = await s.request('PATCH', '/v1/ports/p4', { version: V, body: [{ op: 'replace', path: '/name', value: 'p5' }] });
    assert.equal(renamed.json.name, 'p5');
  });

  it('moves a port to a node named by UUID or name, refusing unknown nodes and other owners alike', async () => {
    await makeNode(s.db, { name: 'node-b' });
    await makeNode(s.db, { name: 'node-owned', owner: 'someone' });
    const moved = await s.request('PATCH', '/v1/ports/p1', { version: V, body: [{ op: 'replace', path: '/node_uuid', value: 'node-b' }] });
    assert.equal(moved.status, 200);
    assert.notEqual(moved.json.node_uuid, NODE);
    for (const value of ['nope', 5, 'node-owned']) {
      const bad = await s.request('PATCH', '/v1/ports/p1', { version: V, body: [{ op: 'replace', path: '/node_uuid', value }] });
      assert.equal(bad.status, 400);
      assert.equal(faultOf(bad.json), `Unable to apply the requested node_uuid '${value}'. Requested value was invalid.`);
    }
    // Removing node_uuid keeps the port where it is.
    const kept = await s.request('PATCH', '/v1/ports/p1', { version: V, body: [{ op: 'remove', path: '/node_uuid' }] });
    assert.equal(kept.json.node_uuid, moved.json.node_uuid);
    await s.request('PATCH', '/v1/ports/p1', { version: V, body: [{ op: 'replace', path: '/node_uuid', value: NODE }] });
  });

  it('takes OVN VTEP switches in local_link_connection from 1.90 and hides them below', async () => {
    const body = { address: '52:54:00:00:01:01', node_uuid: NODE, name: 'ovn', local_link_connection: OVN };
    assert.equal((await s.request('POST', '/v1/ports', { version: '1.89', body })).status, 406);
    const r = await s.request('POST', '/v1/ports', { version: '1.90', body });
    assert.equal(r.status, 201);
    assert.deepEqual(r.json.local_link_connection, OVN);
    assert.deepEqual((await s.request('GET', '/v1/ports/ovn', { version: '1.89' })).json.local_link_connection, {});
    const half = await s.request('POST', '/v1/ports', {
      version: V, body: { address: '52:54:00:00:01:02', node_uuid: NODE, local_link_connection: { port_id: 'e', 'vtep-logical-switch': 'x' } },
    });
    assert.equal(faultOf(half.json), "Schema error for local_link_connection: {'port_id': 'e', 'vtep-logical-switch': 'x'} is not valid " +
      "under any of the given schemas. Possible root cause: 'vtep-physical-switch' is a dependency of 'vtep-logical-switch'");
  });
});
