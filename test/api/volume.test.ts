import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, TestServer } from './support/server';
import { countRows, faultOf, makeNode } from './support/fixtures';
import type { NodeRecord } from '../../src/db/models';

const V = '1.82';
const C1 = '90000000-0000-4000-8000-000000000001';
const T1 = '90000000-0000-4000-8000-000000000011';

describe('/v1/volume', () => {
  let s: TestServer;
  let off: NodeRecord;
  let on: NodeRecord;
  before(async () => {
    s = await startTestServer();
    off = await makeNode(s.db, { name: 'vol-off', power_state: 'power off' });
    on = await makeNode(s.db, { name: 'vol-on', power_state: 'power on' });
  });
  after(async () => { await s.stop(); });

  it('serves the index from 1.32', async () => {
    const r = await s.request('GET', '/v1/volume', { version: V });
    assert.deepEqual(Object.keys(r.json), ['links', 'connectors', 'targets']);
    assert.equal(r.json.connectors[0].href, `${s.url}/v1/volume/connectors`);
    assert.equal((await s.request('GET', '/v1/volume', { version: '1.31' })).status, 404);
    assert.equal((await s.request('GET', '/v1/volume/connectors', { version: '1.31' })).status, 404);
  });

  it('creates connectors and targets, refusing duplicates and unknown nodes', async () => {
    const c = await s.request('POST', '/v1/volume/connectors', {
      version: V, body: { uuid: C1, node_uuid: off.uuid, type: 'iqn', connector_id: 'iqn.2010-10.org.openstack:1' },
    });
    assert.equal(c.status, 201);
    assert.equal(c.headers.get('location'), `${s.url}/v1/volume/connectors/${C1}`);
    const t = await s.request('POST', '/v1/volume/targets', {
      version: V,
      body: { uuid: T1, node_uuid: off.uuid, volume_type: 'iscsi', boot_index: 0, volume_id: 'v1', properties: { auth_password: 'x' } },
    });
    assert.equal(t.status, 201);
    assert.deepEqual(t.json.properties, { auth_password: '******' });
    const before = [await countRows(s.db, 'volume_connectors'), await countRows(s.db, 'volume_targets')];
    const dup = await s.request('POST', '/v1/volume/connectors', {
      version: V, body: { node_uuid: on.uuid, type: 'iqn', connector_id: 'iqn.2010-10.org.openstack:1' },
    });
    assert.equal(faultOf(dup.json), 'A volume connector with type iqn and connector ID iqn.2010-10.org.openstack:1 already exists.');
    const idx = await s.request('POST', '/v1/volume/targets', {
      version: V, body: { node_uuid: off.uuid, volume_type: 'iscsi', boot_index: 0, volume_id: 'v2' },
    });
    assert.equal(faultOf(idx.json), "A volume target with boot index '0' for the same node already exists.");
    const unknown = await s.request('POST', '/v1/volume/connectors', {
      version: V, body: { node_uuid: '90000000-0000-4000-8000-000000000099', type: 'ip', connector_id: '1.2.3.4' },
    });
    assert.equal(faultOf(unknown.json), "Invalid input for field/attribute node_uuid. Value: '90000000-0000-4000-8000-000000000099'. ");
    const type = await s.request('POST', '/v1/volume/targets', {
      version: V, body: { node_uuid: off.uuid, volume_type: 'iscsi', boot_index: '1', volume_id: 'v2' },
    });
    assert.equal(faultOf(type.json), "Schema error for target: '1' is not of type 'integer'");
    assert.deepEqual([await countRows(s.db, 'volume_connectors'), await countRows(s.db, 'volume_targets')], before);
  });

  it('lists with default fields, detail and node filter', async () => {
    const list = await s.request('GET', '/v1/volume/connectors', { version: V });
    assert.deepEqual(Object.keys(list.json.connectors[0]), ['uuid', 'connector_id', 'type', 'links', 'node_uuid']);
    const detail = await s.request('GET', '/v1/volume/targets?detail=True&limit=1', { version: V });
    assert.equal(detail.json.next, `${s.url}/v1/volume/targets?sort_key=id&sort_dir=asc&detail=True&limit=1&marker=${T1}`);
    const both = await s.request('GET', '/v1/volume/connectors?detail=True&fields=uuid', { version: V });
    assert.equal(faultOf(both.json), "Can't fetch a subset of fields with 'detail' set");
    assert.equal((await s.request('GET', '/v1/volume/connectors?node=vol-on', { version: V })).json.connectors.length, 0);
  });

  it('updates and deletes only while the node is powered off', async () => {
    const ok = await s.request('PATCH', `/v1/volume/connectors/${C1}`, {
      version: V, body: [{ op: 'replace', path: '/connector_id', value: 'iqn.2010-10.org.openstack:2' }],
    });
    assert.equal(ok.status, 200);
    assert.equal(ok.json.connector_id, 'iqn.2010-10.org.openstack:2');
    const badNode = await s.request('PATCH', `/v1/volume/connectors/${C1}`, {
      version: V, body: [{ op: 'replace', path: '/node_uuid', value: 'vol-on' }],
    });
    assert.equal(faultOf(badNode.json), 'Expected a UUID for node_uuid, but received vol-on.');
    await s.db.knex('nodes').where({ id: off.id }).update({ power_state: 'power on' });
    const refused = await s.request('DELETE', `/v1/volume/targets/${T1}`, { version: V });
    assert.equal(refused.status, 400);
    assert.equal(faultOf(refused.json),
      `The requested action "volume target deletion" can not be performed on node "${off.uuid}" while it is in state "power on".`);
    await s.db.knex('nodes').where({ id: off.id }).update({ power_state: 'power off' });
    assert.equal((await s.request('DELETE', `/v1/volume/targets/${T1}`, { version: V })).status, 204);
    assert.equal(await countRows(s.db, 'volume_targets'), 0);
  });
});
