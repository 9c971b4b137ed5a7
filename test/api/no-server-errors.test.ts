/**
 * Bad input that Ironic 21.4.4 fails in Python with a 500 (TypeError, AttributeError, KeyError) is
 * the client's 400 here, with a message saying what is wrong, and writes nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { countRows, faultOf } from './support/fixtures';
import { startTestServer, TestServer } from './support/server';

const V = '1.82';

describe('bad input Ironic answers with a 500', () => {
  let s: TestServer;
  let uuid: string;
  let chassis: string;

  before(async () => {
    s = await startTestServer();
    const created = await s.request('POST', '/v1/nodes', { version: V, body: { driver: 'fake-hardware', description: 'before' } });
    assert.equal(created.status, 201, created.text);
    uuid = created.json.uuid;
    const ch = await s.request('POST', '/v1/chassis', { version: V, body: {} });
    assert.equal(ch.status, 201, ch.text);
    chassis = ch.json.uuid;
  });

  after(async () => s.stop());

  it('a JSON null create body is the schema\'s 400 on every collection', async () => {
    const collections: Array<[string, string, string]> = [
      ['/v1/nodes', 'node', 'nodes'],
      ['/v1/chassis', 'chassis', 'chassis'],
      ['/v1/ports', 'port', 'ports'],
      ['/v1/portgroups', 'portgroup', 'portgroups'],
      ['/v1/allocations', 'allocation', 'allocations'],
      ['/v1/deploy_templates', 'template', 'deploy_templates'],
      ['/v1/volume/connectors', 'connector', 'volume_connectors'],
      ['/v1/volume/targets', 'target', 'volume_targets'],
    ];
    for (const [path, noun, table] of collections) {
      const rows = await countRows(s.db, table);
      const res = await s.request('POST', path, { version: V, body: 'null' });
      assert.equal(res.status, 400, `${path}: ${res.text}`);
      assert.equal(faultOf(res.json), `Schema error for ${noun}: None is not of type 'object'`, path);
      assert.equal(await countRows(s.db, table), rows, path);
    }
  });

  it('removing or nulling conductor_group is a 400 and leaves the node as it was', async () => {
    for (const op of [{ op: 'remove', path: '/conductor_group' }, { op: 'replace', path: '/conductor_group', value: null }]) {
      const body = [{ op: 'replace', path: '/description', value: 'after' }, op];
      const res = await s.request('PATCH', `/v1/nodes/${uuid}`, { version: V, body });
      assert.equal(res.status, 400, res.text);
      assert.match(faultOf(res.json), /conductor_group/);
    }
    const shown = await s.request('GET', `/v1/nodes/${uuid}?fields=conductor_group,description`, { version: V });
    assert.equal(shown.json.conductor_group, '');
    assert.equal(shown.json.description, 'before');
  });

  it('chassis_uuid in the query of a chassis\'s node list is a 400', async () => {
    const res = await s.request('GET', `/v1/chassis/${chassis}/nodes?chassis_uuid=${chassis}`, { version: V });
    assert.equal(res.status, 400, res.text);
    assert.match(faultOf(res.json), /path names the chassis/);
  });

  it('found by the fuzz suite: each answers 400 and writes nothing', async () => {
    const node = await s.request('POST', '/v1/nodes', { version: V, body: { driver: 'fake-hardware', name: 'fz-found', resource_class: 'gold' } });
    assert.equal(node.status, 201, node.text);
    const pg = await s.request('POST', '/v1/portgroups', { version: V, body: { node_uuid: node.json.uuid, address: '52:54:00:aa:00:01' } });
    assert.equal(pg.status, 201, pg.text);
    const port = await s.request('POST', '/v1/ports', { version: V, body: { node_uuid: node.json.uuid, address: '52:54:00:aa:00:02' } });
    assert.equal(port.status, 201, port.text);
    const cases: Array<[string, string, unknown, RegExp]> = [
      ['POST', '/v1/events', 'null', /Schema error for evts: None is not of type 'object'/],
      ['POST', `/v1/nodes/${node.json.uuid}/vifs`, 'null', /Schema error for vif: None is not of type 'object'/],
      ['GET', '/v1/shards?x=1', undefined, /Unexpected arguments: x/],
      ['POST', '/v1/ports', { node_uuid: node.json.uuid, address: '52:54:00:aa:00:03', pxe_enabled: null }, /pxe_enabled' cannot be None/],
      ['PATCH', `/v1/ports/${port.json.uuid}`, [{ op: 'remove', path: '/pxe_enabled' }], /pxe_enabled' cannot be None/],
      ['POST', '/v1/portgroups', { node_uuid: node.json.uuid, standalone_ports_supported: null }, /standalone_ports_supported' cannot be None/],
      ['PATCH', `/v1/portgroups/${pg.json.uuid}`, [{ op: 'remove', path: '/standalone_ports_supported' }], /standalone_ports_supported' cannot be None/],
      ['PUT', `/v1/nodes/${node.json.uuid}/states/provision`, { target: 'manage', disable_ramdisk: false }, /disable_ramdisk is supported only with manual cleaning/],
    ];
    for (const [method, path, body, message] of cases) {
      const res = await s.request(method, path, { version: V, body });
      assert.equal(res.status, 400, `${method} ${path}: ${res.text}`);
      assert.match(faultOf(res.json), message, `${method} ${path}`);
    }
    assert.equal(await countRows(s.db, 'ports'), 1);
    const unchanged = await s.request('GET', `/v1/ports/${port.json.uuid}?fields=pxe_enabled`, { version: V });
    assert.equal(unchanged.json.pxe_enabled, true);
  });

  it('backfilling an allocation onto a node that does not fit is a 400 naming why; the allocation is left failed', async () => {
    const res = await s.request('POST', '/v1/allocations', { version: V, body: { resource_class: 'gold', node: 'fz-found' } });
    assert.equal(res.status, 400, res.text);
    assert.match(faultOf(res.json), /Cannot backfill an allocation for node .*: Node must be in the "active" state/);
    // As in Ironic (_allocation_failed): the allocation stays, in state error with the reason.
    const listed = await s.request('GET', '/v1/allocations?fields=state,last_error,node_uuid', { version: V });
    assert.equal(listed.json.allocations.length, 1);
    assert.equal(listed.json.allocations[0].state, 'error');
    assert.equal(listed.json.allocations[0].node_uuid, null);
    assert.match(listed.json.allocations[0].last_error, /Cannot backfill/);
  });
});
