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
});
