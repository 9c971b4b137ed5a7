/**
 * The firmware interface (1.86) and virtual media (1.89, GET 1.93) through the API with the real
 * in-process conductor on fake-hardware: the answers Ironic 29.0.5 gives for the same requests.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as firmwareRows from '../../src/db/repositories/firmware';
import * as nodesRepo from '../../src/db/repositories/nodes';
import { faultOf } from './support/fixtures';
import { startTestServer, TestServer } from './support/server';

const V = '1.96';

describe('firmware interface and virtual media', () => {
  let s: TestServer;
  let uuid: string;

  before(async () => {
    s = await startTestServer();
    uuid = (await s.request('POST', '/v1/nodes', { version: V, body: { driver: 'fake-hardware', name: 'fw1' } })).json.uuid;
  });
  after(async () => { await s.stop(); });

  /** The node's last_error once the conductor's spawned work has written it. */
  async function lastErrorBecomes(text: string): Promise<void> {
    for (let i = 0; i < 200; i++) {
      if ((await nodesRepo.get(s.db, uuid)).last_error === text) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    assert.equal((await nodesRepo.get(s.db, uuid)).last_error, text);
  }

  it('shows firmware_interface from 1.86, set from the hardware type\'s default, and lets it be patched', async () => {
    const node = await s.request('GET', '/v1/nodes/fw1', { version: '1.86' });
    assert.equal(node.json.firmware_interface, 'fake');
    assert.ok(!('firmware_interface' in (await s.request('GET', '/v1/nodes/fw1', { version: '1.85' })).json));
    const old = await s.request('GET', '/v1/nodes/fw1?fields=firmware_interface', { version: '1.85' });
    assert.equal(old.status, 406);
    const patched = await s.request('PATCH', '/v1/nodes/fw1', { version: V,
      body: [{ op: 'replace', path: '/firmware_interface', value: 'no-firmware' }] });
    assert.equal(patched.json.firmware_interface, 'no-firmware');
    const bad = await s.request('PATCH', '/v1/nodes/fw1', { version: V,
      body: [{ op: 'replace', path: '/firmware_interface', value: 'bogus' }] });
    assert.equal(bad.status, 400);
    assert.match(faultOf(bad.json), /^Could not find the following interface in the 'ironic.hardware.interfaces.firmware' entrypoint: bogus\./);
    await s.request('PATCH', '/v1/nodes/fw1', { version: V, body: [{ op: 'replace', path: '/firmware_interface', value: 'fake' }] });
  });

  it('validates the firmware interface at every version, as 29.0.5 does', async () => {
    for (const version of ['1.1', '1.85', V]) {
      const r = await s.request('GET', `/v1/nodes/${uuid}/validate`, { version });
      assert.deepEqual(r.json.firmware, { result: true }, version);
    }
  });

  it('lists the cached firmware components with Ironic\'s default fields, ?fields and ?detail', async () => {
    assert.deepEqual((await s.request('GET', '/v1/nodes/fw1/firmware', { version: V })).json, { firmware: [] });
    const node = await nodesRepo.get(s.db, uuid);
    await firmwareRows.create(s.db, node.id, { component: 'bios', initial_version: '1.0', current_version: '1.0' });
    const list = await s.request('GET', '/v1/nodes/fw1/firmware', { version: V });
    assert.equal(list.status, 200);
    const [bios] = list.json.firmware;
    assert.deepEqual(Object.keys(bios), ['created_at', 'updated_at', 'component', 'initial_version', 'current_version',
      'last_version_flashed']);
    assert.deepEqual([bios.component, bios.initial_version, bios.current_version, bios.last_version_flashed],
      ['bios', '1.0', '1.0', null]);
    assert.match(bios.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?\+00:00$/);
    const some = await s.request('GET', '/v1/nodes/fw1/firmware?fields=component', { version: V });
    assert.deepEqual(Object.keys(some.json.firmware[0]), ['created_at', 'updated_at', 'component']);
    // Upstream's ?detail=True alone names no fields: only the timestamps remain.
    const detail = await s.request('GET', '/v1/nodes/fw1/firmware?detail=True', { version: V });
    assert.deepEqual(Object.keys(detail.json.firmware[0]), ['created_at', 'updated_at']);
  });

  it('refuses firmware queries as Ironic does', async () => {
    const cases: [string, string, number, string][] = [
      ['/v1/nodes/fw1/firmware?detail=True&fields=component', V, 400, 'Can not specify ?detail=True and fields in the same request.'],
      ['/v1/nodes/fw1/firmware?fields=bogus', V, 400, 'Field(s) "bogus" are not valid'],
      ['/v1/nodes/fw1/firmware?limit=1', V, 400, 'Unexpected arguments: limit'],
      ['/v1/nodes/nosuch/firmware', V, 404, 'Node nosuch could not be found.'],
    ];
    for (const [path, version, status, message] of cases) {
      const r = await s.request('GET', path, { version });
      assert.equal(r.status, status, path);
      assert.equal(faultOf(r.json), message, path);
    }
    const old = await s.request('GET', '/v1/nodes/fw1/firmware', { version: '1.85' });
    assert.equal(old.status, 404);
    assert.equal(old.headers.get('x-openstack-ironic-api-version'), null);
  });

  it('serves vmedia from 1.89 (GET from 1.93) and checks its arguments before the node', async () => {
    const cases: [string, string, string, unknown, number, string | null][] = [
      ['POST', '/v1/nodes/fw1/vmedia', '1.88', { device_type: 'cdrom', image_url: 'http://x/y.iso' }, 404, null],
      ['DELETE', '/v1/nodes/fw1/vmedia', '1.88', undefined, 404, null],
      ['GET', '/v1/nodes/fw1/vmedia', '1.92', undefined, 404, 'The resource could not be found.'],
      ['POST', '/v1/nodes/fw1/vmedia', V, {}, 400, "Schema error for vmedia: 'device_type' is a required property"],
      ['POST', '/v1/nodes/fw1/vmedia', V, { device_type: 'cd', image_url: 'http://x' }, 400,
        "Schema error for vmedia: 'cd' is not one of ['disk', 'cdrom', 'floppy']"],
      ['POST', '/v1/nodes/fw1/vmedia', V, { device_type: 'disk', image_url: 'http://x', image_download_source: 'glance' }, 400,
        "Schema error for vmedia: 'glance' is not one of ['http', 'local', 'swift']"],
      ['POST', '/v1/nodes/fw1/vmedia', V, { device_type: 'disk', image_url: 'http://x', extra: 1 }, 400,
        "Schema error for vmedia: Additional properties are not allowed ('extra' was unexpected)"],
      ['POST', '/v1/nodes/fw1/vmedia', V, { device_type: 'disk', image_url: 'ftp://x/y' }, 400, 'Unsupported or missing URL scheme: ftp'],
      ['POST', '/v1/nodes/fw1/vmedia', V, { device_type: 'disk', image_url: 'y.img' }, 400, 'Unsupported or missing URL scheme: '],
      ['POST', '/v1/nodes/nosuch/vmedia', V, { device_type: 'disk', image_url: 'HTTP://x/y' }, 404, 'Node nosuch could not be found.'],
      ['DELETE', '/v1/nodes/fw1/vmedia?device_types=cdrom,usb,bogus', V, undefined, 400,
        'Invalid device type(s) usb, bogus (valid are disk, cdrom, floppy)'],
      ['DELETE', '/v1/nodes/fw1/vmedia?foo=1', V, undefined, 400, 'Unexpected arguments: foo'],
      ['GET', '/v1/nodes/fw1/vmedia', V, undefined, 400,
        'Driver fake-hardware does not support get_virtual_media (disabled or not implemented).'],
    ];
    for (const [method, path, version, body, status, message] of cases) {
      const r = await s.request(method, path, { version, body });
      assert.equal(r.status, status, `${method} ${path} ${JSON.stringify(body)}`);
      if (message !== null) assert.equal(faultOf(r.json), message, `${method} ${path}`);
    }
  });

  it('answers attach and detach with 204 and records the outcome in last_error, as 29.0.5 on fake-hardware', async () => {
    const attach = await s.request('POST', '/v1/nodes/fw1/vmedia', { version: V,
      body: { device_type: 'cdrom', image_url: 'http://127.0.0.1:9/y.iso' } });
    assert.equal(attach.status, 204);
    assert.equal(attach.text, '');
    await lastErrorBecomes(`Could not attach device cdrom to node ${uuid}: Publishing images is not supported for driver fake-hardware`);
    const detach = await s.request('DELETE', '/v1/nodes/fw1/vmedia?device_types=cdrom,FLOPPY', { version: V });
    assert.equal(detach.status, 204);
    await lastErrorBecomes(`Could not detach device(s) ['cdrom', 'floppy'] from node ${uuid}: Driver fake-hardware does not ` +
      'support detach_virtual_media (disabled or not implemented).');
    assert.equal((await s.request('DELETE', '/v1/nodes/fw1/vmedia', { version: V })).status, 204);
    await lastErrorBecomes(`Could not detach device(s) None from node ${uuid}: Driver fake-hardware does not ` +
      'support detach_virtual_media (disabled or not implemented).');
  });
});
