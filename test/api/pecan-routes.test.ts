import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, TestServer } from './support/server';
import { faultOf, heartbeatConductor, makeNode } from './support/fixtures';

const V = '1.96';
const NODE = '31111111-1111-4111-8111-111111111111';

describe('pecan attribute routes, positional fields and the .json suffix', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
    await heartbeatConductor(s.db);
    await makeNode(s.db, { uuid: NODE, name: 'n1' });
    await makeNode(s.db, { name: 'named.json' });
  });
  after(async () => { await s.stop(); });

  it('serves /v1/nodes/{attribute}/.../{node} as /v1/nodes/{node}/{attribute}/...', async () => {
    assert.deepEqual((await s.request('GET', '/v1/nodes/management/boot_device/n1', { version: V })).json,
      (await s.request('GET', '/v1/nodes/n1/management/boot_device', { version: V })).json);
    assert.equal((await s.request('PUT', '/v1/nodes/maintenance/n1', { version: V, body: { reason: 'r' } })).status, 202);
    assert.equal((await s.request('GET', '/v1/nodes/n1', { version: V })).json.maintenance_reason, 'r');
    assert.equal((await s.request('DELETE', '/v1/nodes/maintenance/n1', { version: V })).status, 202);
    assert.equal((await s.request('PUT', '/v1/nodes/states/power/n1', { version: V, body: { target: 'power on' } })).status, 202);
    const vendor = await s.request('GET', '/v1/nodes/vendor_passthru/n1', { version: V });
    assert.equal(faultOf(vendor.json), 'Missing mandatory parameter: method');
    // _default(node_ident, method): "methods" here is the node.
    assert.equal(faultOf((await s.request('GET', '/v1/nodes/vendor_passthru/methods/n1', { version: V })).json),
      'Node methods could not be found.');
    assert.equal(faultOf((await s.request('GET', '/v1/nodes/management/indicators/n1/led', { version: V })).json),
      'Malformed indicator name "led"');
    const maintenance = await s.request('GET', '/v1/nodes/maintenance/n1', { version: V });
    assert.equal(maintenance.status, 405);
    assert.equal(maintenance.headers.get('allow'), 'DELETE, PUT');
    assert.equal((await s.request('GET', '/v1/nodes/management/n1', { version: V })).status, 405);
  });

  it('reads a further path segment as get_one\'s fields', async () => {
    const picked = (await s.request('GET', '/v1/nodes/n1/name,uuid', { version: V })).json;
    assert.deepEqual([picked.name, picked.uuid, Object.keys(picked).sort()], ['n1', NODE, ['links', 'name', 'uuid']]);
    assert.equal(faultOf((await s.request('GET', '/v1/nodes/n1/foo', { version: V })).json), 'Field foo is not a valid field.');
    assert.equal(faultOf((await s.request('GET', '/v1/nodes/indicators/n1', { version: V })).json), 'Node indicators could not be found.');
    assert.equal(faultOf((await s.request('GET', '/v1/nodes/n1/detail', { version: V })).json), 'Expected UUID for chassis_uuid: n1');
    assert.equal((await s.request('GET', `/v1/nodes/${NODE}/detail`, { version: V })).status, 404);
    const port = await s.request('POST', '/v1/ports', { version: V, body: { address: '52:54:00:00:00:01', node_uuid: NODE, name: 'p1' } });
    assert.deepEqual((await s.request('GET', `/v1/ports/${port.json.uuid}/name`, { version: V })).json.name, 'p1');
    assert.equal(faultOf((await s.request('GET', '/v1/ports/p1/foo', { version: V })).json), 'Field(s) "foo" are not valid');
  });

  it('strips .json only when the request names a version below 1.91', async () => {
    assert.equal((await s.request('GET', '/v1/nodes/n1.json', { version: '1.90' })).json.uuid, NODE);
    assert.equal((await s.request('GET', '/v1/nodes.json', { version: '1.90' })).status, 200);
    assert.equal((await s.request('GET', '/v1/nodes.json', { version: '1.91' })).status, 404);
    assert.equal((await s.request('GET', '/v1/nodes.json')).status, 404);
    assert.equal(faultOf((await s.request('GET', '/v1/nodes/n1.json', { version: '1.91' })).json), 'Node n1.json could not be found.');
    // Below 1.91 a node whose name ends in .json is still found: the lookup tries the suffix back.
    assert.equal((await s.request('GET', '/v1/nodes/named.json', { version: '1.90' })).json.name, 'named.json');
    assert.equal((await s.request('GET', '/v1/nodes/named.json', { version: V })).json.name, 'named.json');
  });
});
