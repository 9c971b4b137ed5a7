import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, TestServer } from './support/server';
import { faultOf, heartbeatConductor } from './support/fixtures';

const V = '1.82';

describe('/v1/drivers and /v1/conductors', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
    await heartbeatConductor(s.db);
  });
  after(async () => { await s.stop(); });

  it('lists the hardware types of alive conductors', async () => {
    const r = await s.request('GET', '/v1/drivers', { version: V });
    const names = r.json.drivers.map((d: { name: string }) => d.name);
    assert.ok(names.includes('fake-hardware'));
    const fake = r.json.drivers.find((d: { name: string }) => d.name === 'fake-hardware');
    assert.deepEqual(fake.hosts, ['test-conductor']);
    assert.deepEqual(Object.keys(fake), ['name', 'hosts', 'links', 'properties', 'type']);
    const old = await s.request('GET', '/v1/drivers', { version: '1.13' });
    assert.deepEqual(Object.keys(old.json.drivers[0]), ['name', 'hosts', 'links']);
    assert.deepEqual((await s.request('GET', '/v1/drivers?type=classic', { version: V })).json, { drivers: [] });
  });

  it('shows interfaces in detail, hiding newer ones below their version', async () => {
    const r = await s.request('GET', '/v1/drivers/fake-hardware', { version: V });
    assert.equal(r.json.default_boot_interface, 'fake');
    assert.ok(r.json.enabled_raid_interfaces.includes('fake'));
    assert.ok(!('default_firmware_interface' in r.json));
    // The firmware interface (1.86): fake-hardware's choices as enabled for the test conductor.
    const fw = await s.request('GET', '/v1/drivers/fake-hardware', { version: '1.86' });
    assert.equal(fw.json.default_firmware_interface, 'fake');
    assert.deepEqual([...fw.json.enabled_firmware_interfaces].sort(), ['fake', 'no-firmware']);
    assert.ok(!('default_firmware_interface' in (await s.request('GET', '/v1/drivers/fake-hardware', { version: '1.85' })).json));
    const old = await s.request('GET', '/v1/drivers?detail=True', { version: '1.30' });
    assert.ok(!('default_storage_interface' in old.json.drivers[0]));
    assert.ok('default_deploy_interface' in old.json.drivers[0]);
  });

  it('refuses bad arguments with Ironic messages', async () => {
    const cases: [string, string, number, string][] = [
      ['/v1/drivers?detail=True', '1.29', 406, 'Request not acceptable. The minimal required API version should be 1.30'],
      ['/v1/drivers?type=bogus', V, 400, '"type" filter must be one of "classic" or "dynamic", if specified.'],
      ['/v1/drivers?detail=True&fields=name', V, 400, 'Can not specify ?detail=True and fields in the same request.'],
      ['/v1/drivers?fields=name', '1.76', 406, 'Request not acceptable.'],
      ['/v1/drivers?fields=name,bogus', V, 400, 'Field(s) "bogus" are not valid'],
      ['/v1/drivers/nosuch', V, 404, 'Could not find the following driver(s) or hardware type(s): nosuch.'],
      ['/v1/drivers/nosuch/properties', V, 404, "The driver 'nosuch' is unknown."],
      ['/v1/drivers/fake-hardware/raid/logical_disk_properties', '1.11', 406, 'Request not acceptable.'],
    ];
    for (const [path, version, status, message] of cases) {
      const r = await s.request('GET', path, { version });
      assert.equal(r.status, status, path);
      assert.equal(faultOf(r.json), message);
    }
  });

  it('returns driver properties from the conductor', async () => {
    const r = await s.request('GET', '/v1/drivers/fake-hardware/properties', { version: V });
    assert.equal(r.status, 200);
    assert.equal(typeof r.json, 'object');
    assert.deepEqual((await s.request('GET', '/v1/drivers/fake-hardware/vendor_passthru/methods', { version: V })).json, {});
  });

  it('lists and shows conductors from 1.49', async () => {
    const list = await s.request('GET', '/v1/conductors', { version: V });
    assert.deepEqual(list.json.conductors.map((c: { hostname: string; alive: boolean }) => [c.hostname, c.alive]),
      [['test-conductor', true]]);
    assert.deepEqual(Object.keys(list.json.conductors[0]), ['hostname', 'conductor_group', 'links', 'alive']);
    const one = await s.request('GET', '/v1/conductors/test-conductor', { version: V });
    assert.deepEqual(Object.keys(one.json), ['created_at', 'updated_at', 'hostname', 'conductor_group', 'drivers', 'links', 'alive']);
    assert.equal((await s.request('GET', '/v1/conductors', { version: '1.48' })).status, 404);
    const page = await s.request('GET', '/v1/conductors?limit=1', { version: V });
    assert.equal(page.json.next,
      `${s.url}/v1/conductors?sort_key=id&sort_dir=asc&fields=hostname,conductor_group,alive&limit=1&marker=test-conductor`);
    assert.equal(faultOf((await s.request('GET', '/v1/conductors/nosuch', { version: V })).json), 'Conductor nosuch could not be found.');
    assert.equal(faultOf((await s.request('GET', '/v1/conductors?sort_key=alive', { version: V })).json),
      'The sort_key value alive is an invalid field for sorting');
  });
});
