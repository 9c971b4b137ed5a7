/**
 * Indicators, vendor passthru and target RAID through the API with the real in-process conductor
 * (fake-hardware): the answers Ironic 21.4.4 gives for the same requests.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, TestServer } from './support/server';
import { faultOf } from './support/fixtures';
import * as nodesRepo from '../../src/db/repositories/nodes';

const V = '1.82';

describe('node indicators, vendor passthru and RAID validation', () => {
  let s: TestServer;
  let uuid: string;

  before(async () => {
    s = await startTestServer();
    uuid = (await s.request('POST', '/v1/nodes', { version: V, body: { driver: 'fake-hardware', name: 'iv1' } })).json.uuid;
  });
  after(async () => { await s.stop(); });

  it('lists the fake indicators with links', async () => {
    const res = await s.request('GET', '/v1/nodes/iv1/management/indicators', { version: V });
    assert.equal(res.status, 200);
    const link = (name: string) => [
      { href: `${s.url}/v1/nodes/iv1/management/indicators/${name}`, rel: 'self' },
      { href: `${s.url}/nodes/iv1/management/indicators/${name}`, rel: 'bookmark' },
    ];
    assert.deepEqual(res.json, { indicators: [
      { name: 'led-0@chassis', component: 'chassis', readonly: true, states: ['off', 'on'], links: link('led-0@chassis') },
      { name: 'led@system', component: 'system', readonly: false, states: ['blinking', 'off', 'on'], links: link('led@system') },
    ] });
  });

  it('reads one indicator and refuses to set it, as fake management does', async () => {
    const get = await s.request('GET', '/v1/nodes/iv1/management/indicators/led@system', { version: V });
    assert.equal(get.status, 200);
    assert.deepEqual(get.json, { state: 'on' });
    const unknown = await s.request('GET', '/v1/nodes/iv1/management/indicators/foo@system', { version: V });
    assert.equal(unknown.status, 400);
    assert.equal(faultOf(unknown.json), 'Invalid indicator foo specified.');
    const put = await s.request('PUT', '/v1/nodes/iv1/management/indicators/led@system', { version: V, body: { state: 'on' } });
    assert.equal(put.status, 400);
    assert.equal(faultOf(put.json), 'Driver fake-hardware does not support set_indicator_state (disabled or not implemented).');
  });

  it('lists FakeVendorB methods as the reference does', async () => {
    const res = await s.request('GET', '/v1/nodes/iv1/vendor_passthru/methods', { version: V });
    assert.equal(res.status, 200);
    assert.equal(res.text, JSON.stringify({
      fourth_method_shared_lock: { http_methods: ['POST'], async: true, description: 'Test if the value of bar is woof', attach: false, require_exclusive_lock: false },
      log_passthrough: { http_methods: ['POST'], async: true, description: 'Test pass-through to wait.', attach: false, require_exclusive_lock: true },
      second_method: { http_methods: ['POST'], async: true, description: 'Test if the value of bar is kazoo', attach: false, require_exclusive_lock: true },
      third_method_sync: { http_methods: ['POST'], async: false, description: 'Test if the value of bar is meow', attach: false, require_exclusive_lock: true },
    }).replace(/":/g, '": ').replace(/,"/g, ', "'));
  });

  it('calls vendor methods: 200 with the result, 202 when asynchronous, 400 on bad calls', async () => {
    const sync = await s.request('POST', `/v1/nodes/${uuid}/vendor_passthru?method=third_method_sync`, { version: V, body: { bar: 'meow' } });
    assert.equal(sync.status, 200);
    assert.equal(sync.json, true);
    const async = await s.request('POST', '/v1/nodes/iv1/vendor_passthru?method=second_method', { version: V, body: { bar: 'kazoo' } });
    assert.equal(async.status, 202);
    const logged = await s.request('POST', '/v1/nodes/iv1/vendor_passthru?method=log_passthrough', { version: V, body: { any: 'argument' } });
    assert.equal(logged.status, 202);
    const missing = await s.request('POST', '/v1/nodes/iv1/vendor_passthru?method=second_method', { version: V, body: {} });
    assert.equal(missing.status, 400);
    assert.equal(faultOf(missing.json), "Parameter 'bar' not passed to method 'second_method'.");
    const unknown = await s.request('POST', '/v1/nodes/iv1/vendor_passthru?method=first_method', { version: V, body: { bar: 'baz' } });
    assert.equal(unknown.status, 400);
    assert.equal(faultOf(unknown.json), 'No handler for method first_method');
  });

  it('takes the method from the path as python-ironicclient sends it, and refuses naming it twice', async () => {
    const sync = await s.request('POST', `/v1/nodes/${uuid}/vendor_passthru/third_method_sync`, { version: V, body: { bar: 'meow' } });
    assert.equal(sync.status, 200);
    assert.equal(sync.json, true);
    const twice = await s.request('POST', '/v1/nodes/iv1/vendor_passthru/third_method_sync?method=second_method', { version: V, body: {} });
    assert.equal(twice.status, 400);
    assert.equal(faultOf(twice.json), 'The vendor passthru method is named both in the path and by ?method=');
    const deeper = await s.request('POST', '/v1/nodes/iv1/vendor_passthru/a/b', { version: V, body: {} });
    assert.equal(deeper.status, 400);
    assert.equal(faultOf(deeper.json), "A vendor passthru method is one path segment, not 'a/b'");
    const driver = await s.request('POST', '/v1/drivers/fake-hardware/vendor_passthru/nope', { version: V, body: {} });
    assert.equal(driver.status, 400);
    assert.equal(faultOf(driver.json), 'No handler for method nope');
  });

  it('rejects an invalid target RAID config with 400 and leaves the node unchanged', async () => {
    const before = (await nodesRepo.get(s.db, uuid)).target_raid_config;
    const res = await s.request('PUT', '/v1/nodes/iv1/states/raid', { version: V, body: { logical_disks: [{ raid_level: '42' }] } });
    assert.equal(res.status, 400);
    assert.equal(faultOf(res.json), "RAID config validation error: 'size_gb' is a required property");
    assert.deepEqual((await nodesRepo.get(s.db, uuid)).target_raid_config, before);
    const good = { logical_disks: [{ raid_level: '1', size_gb: 100 }] };
    assert.equal((await s.request('PUT', '/v1/nodes/iv1/states/raid', { version: V, body: good })).status, 204);
    assert.deepEqual((await nodesRepo.get(s.db, uuid)).target_raid_config, good);
  });
});
