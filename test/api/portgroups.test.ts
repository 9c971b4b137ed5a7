import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, TestServer } from './support/server';
import { countRows, faultOf, makeNode } from './support/fixtures';
import type { NodeRecord } from '../../src/db/models';

const V = '1.82';
const PG = 'c0000000-0000-4000-8000-000000000001';

describe('/v1/portgroups', () => {
  let s: TestServer;
  let n1: NodeRecord;
  let n2: NodeRecord;

  before(async () => {
    s = await startTestServer();
    n1 = await makeNode(s.db, { name: 'pg-node-1' });
    n2 = await makeNode(s.db, { name: 'pg-node-2' });
  });
  after(async () => { await s.stop(); });

  it('creates portgroups with the default mode and optional address', async () => {
    const r = await s.request('POST', '/v1/portgroups', {
      version: V, body: { uuid: PG, node_uuid: n1.uuid, name: 'bond0', address: '52:54:00:CC:00:01', properties: { miimon: '100' } },
    });
    assert.equal(r.status, 201);
    assert.equal(r.headers.get('location'), `${s.url}/v1/portgroups/${PG}`);
    assert.deepEqual(Object.keys(r.json), ['uuid', 'created_at', 'updated_at', 'address', 'extra', 'internal_info', 'mode', 'name',
      'properties', 'standalone_ports_supported', 'node_uuid', 'links', 'ports']);
    assert.equal(r.json.mode, 'active-backup');
    assert.equal(r.json.address, '52:54:00:cc:00:01');
    assert.equal(r.json.standalone_ports_supported, true);
    assert.equal(r.json.ports[0].href, `${s.url}/v1/portgroups/${PG}/ports`);
    const bare = await s.request('POST', '/v1/portgroups', { version: V, body: { node_uuid: n2.uuid, standalone_ports_supported: false } });
    assert.equal(bare.status, 201);
    assert.equal(bare.json.address, null);
  });

  it('refuses bad bodies and writes nothing', async () => {
    const before = await countRows(s.db, 'portgroups');
    const cases: [unknown, number, string, string?][] = [
      [{ node_uuid: n1.uuid, name: 'bond0' }, 409, 'A portgroup with name bond0 already exists.'],
      [{ node_uuid: n1.uuid, address: '52:54:00:cc:00:01' }, 409, 'A portgroup with MAC address 52:54:00:cc:00:01 already exists.'],
      [{ node_uuid: n1.uuid, name: 'bad name' }, 400, "Cannot create portgroup with invalid name 'bad name'"],
      [{ node_uuid: n1.uuid, mode: '802.3ad' }, 406, 'Request not acceptable.', '1.25'],
      [{ node_uuid: n1.uuid }, 404, 'Resource could not be found.', '1.22'],
      [{ name: 'x' }, 400, "Schema error for portgroup: 'node_uuid' is a required property"],
      [{ node_uuid: n1.uuid, address: 'nope' }, 400, 'Expected valid MAC address for address: nope'],
    ];
    for (const [body, status, message, version] of cases) {
      const r = await s.request('POST', '/v1/portgroups', { version: version ?? V, body });
      assert.equal(r.status, status, JSON.stringify(body));
      assert.equal(faultOf(r.json), message);
    }
    assert.equal(await countRows(s.db, 'portgroups'), before);
  });

  it('lists, shows by name and gates below 1.23', async () => {
    const list = await s.request('GET', '/v1/portgroups', { version: V });
    assert.deepEqual(Object.keys(list.json.portgroups[0]), ['uuid', 'address', 'name', 'links']);
    const page = await s.request('GET', '/v1/portgroups?limit=1&detail=True', { version: V });
    assert.equal(page.json.next, `${s.url}/v1/portgroups?sort_key=id&sort_dir=asc&detail=True&limit=1&marker=${PG}`);
    assert.equal((await s.request('GET', '/v1/portgroups?node=pg-node-2', { version: V })).json.portgroups.length, 1);
    assert.equal((await s.request('GET', '/v1/portgroups/bond0', { version: V })).json.uuid, PG);
    assert.equal((await s.request('GET', '/v1/portgroups?fields=mode', { version: '1.25' })).status, 406);
    assert.equal((await s.request('GET', '/v1/portgroups', { version: '1.22' })).status, 404);
    const badName = await s.request('GET', '/v1/portgroups/bad%20name', { version: V });
    assert.equal(badName.status, 400);
    assert.equal(faultOf(badName.json), 'Expected UUID or name for portgroup: bad name');
  });

  it('puts ports in a portgroup and lists them under it', async () => {
    const p = await s.request('POST', '/v1/ports', {
      version: V, body: { address: '52:54:00:cc:00:11', node_uuid: n1.uuid, portgroup_uuid: PG },
    });
    assert.equal(p.status, 201);
    assert.equal(p.json.portgroup_uuid, PG);
    const other = await s.request('POST', '/v1/ports', {
      version: V, body: { address: '52:54:00:cc:00:12', node_uuid: n2.uuid, portgroup_uuid: PG },
    });
    assert.equal(other.status, 400);
    assert.equal(faultOf(other.json), 'Port can not be added to a portgroup belonging to a different node.');
    const sub = await s.request('GET', `/v1/portgroups/${PG}/ports`, { version: V });
    assert.deepEqual(sub.json.ports.map((x: { address: string }) => x.address), ['52:54:00:cc:00:11']);
    assert.equal((await s.request('GET', `/v1/portgroups/${PG}/ports`, { version: '1.23' })).status, 404);
    assert.equal((await s.request('GET', `/v1/ports?portgroup=bond0`, { version: V })).json.ports.length, 1);
    const byName = await s.request('GET', '/v1/portgroups/bond0/ports', { version: V });
    assert.equal(faultOf(byName.json), 'Portgroup bond0 could not be found.');
  });

  it('patches and refuses invalid changes', async () => {
    const ok = await s.request('PATCH', '/v1/portgroups/bond0', {
      version: V, body: [{ op: 'replace', path: '/name', value: 'bond1' }, { op: 'remove', path: '/properties/miimon' }],
    });
    assert.equal(ok.status, 200);
    assert.equal(ok.json.name, 'bond1');
    assert.deepEqual(ok.json.properties, {});
    const snapshot = JSON.stringify(await s.db.knex('portgroups').orderBy('id'));
    const bad: [unknown, number, string][] = [
      [[{ op: 'replace', path: '/name', value: 'bad name' }], 400, "Portgroup bond1: Cannot change name to invalid name 'bad name'"],
      [[{ op: 'remove', path: '/mode' }], 400, "'mode' is a mandatory attribute and can not be removed"],
      [[{ op: 'replace', path: '/internal_info', value: {} }], 400,
        'Cannot patch /internal_info. Only the following can be updated: address, extra, mode, name, node_uuid, properties, standalone_ports_supported'],
    ];
    for (const [body, status, message] of bad) {
      const r = await s.request('PATCH', '/v1/portgroups/bond1', { version: V, body });
      assert.equal(r.status, status);
      assert.equal(faultOf(r.json), message);
    }
    assert.equal(JSON.stringify(await s.db.knex('portgroups').orderBy('id')), snapshot);
  });

  it('refuses to delete a portgroup with ports, then deletes it once empty', async () => {
    const full = await s.request('DELETE', `/v1/portgroups/${PG}`, { version: V });
    assert.equal(full.status, 400);
    // 29.0.5 names the group by its database id.
    const { id } = await s.db.knex('portgroups').where({ uuid: PG }).first('id') as { id: number };
    assert.equal(faultOf(full.json), `Cannot complete the requested action because portgroup ${id} contains ports.`);
    await s.db.knex('ports').delete();
    assert.equal((await s.request('DELETE', `/v1/portgroups/${PG}`, { version: V })).status, 204);
    assert.equal((await s.request('GET', `/v1/portgroups/${PG}`, { version: V })).status, 404);
  });
});
