/**
 * DELETE bodies as Ironic 29.0.5 (pecan) reads them: a JSON object's members or form fields join the
 * query's arguments, so a body can name what to delete, and names a handler does not take are refused.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as nodesRepo from '../../src/db/repositories/nodes';
import { faultOf } from './support/fixtures';
import { startTestServer, TestServer } from './support/server';

const V = '1.96';
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

describe('DELETE request bodies', () => {
  let s: TestServer;
  let uuid: string;

  before(async () => {
    s = await startTestServer();
    uuid = (await s.request('POST', '/v1/nodes', { version: V, body: { driver: 'fake-hardware', name: 'db1' } })).json.uuid;
  });
  after(async () => { await s.stop(); });

  async function traits(): Promise<string[]> {
    return (await s.request('GET', '/v1/nodes/db1/traits', { version: V })).json.traits;
  }

  it('removes the one trait a JSON or form body names, and all of them without one', async () => {
    await s.request('PUT', '/v1/nodes/db1/traits', { version: V, body: { traits: ['CUSTOM_A', 'CUSTOM_B', 'CUSTOM_C'] } });
    assert.equal((await s.request('DELETE', '/v1/nodes/db1/traits', { version: V, body: { trait: 'CUSTOM_A' } })).status, 204);
    assert.deepEqual(await traits(), ['CUSTOM_B', 'CUSTOM_C']);
    const form = await s.request('DELETE', '/v1/nodes/db1/traits', { version: V, body: 'trait=CUSTOM_B', headers: FORM });
    assert.equal(form.status, 204);
    assert.deepEqual(await traits(), ['CUSTOM_C']);
    const missing = await s.request('DELETE', '/v1/nodes/db1/traits', { version: V, body: { trait: 'CUSTOM_Z' } });
    assert.equal(missing.status, 404);
    assert.equal(faultOf(missing.json), `Node ${uuid} doesn't have a trait 'CUSTOM_Z'`);
    // A body pecan cannot read (malformed, not an object, another type) is ignored: everything goes.
    const ignored = await s.request('DELETE', '/v1/nodes/db1/traits', { version: V, body: '{"trait": ' });
    assert.equal(ignored.status, 204);
    assert.deepEqual(await traits(), []);
  });

  it('refuses names the handler does not take, bad values and an argument given twice', async () => {
    const cases: [string, unknown, Record<string, string> | undefined, string][] = [
      ['/v1/nodes/db1/traits', { traits: ['CUSTOM_A'] }, undefined, 'Unexpected arguments: traits'],
      ['/v1/nodes/db1/traits', { trait: 5 }, undefined, 'Expected string for trait: 5'],
      ['/v1/nodes/db1/traits?trait=CUSTOM_X', { trait: 'CUSTOM_Y' }, undefined, "Expected string for trait: ['CUSTOM_X', 'CUSTOM_Y']"],
      ['/v1/nodes/db1/traits', 'bogus=1', FORM, 'Unexpected arguments: bogus'],
      ['/v1/nodes/db1/maintenance', { reason: 'x' }, undefined, 'Unexpected arguments: reason'],
      ['/v1/nodes/db1/allocation', { bogus: 1 }, undefined, 'Unexpected arguments: bogus'],
      [`/v1/nodes/${uuid}`, { node_ident: uuid }, undefined, 'Unexpected arguments: node_ident'],
      ['/v1/chassis', { chassis_uuid: 'nope' }, undefined, 'Expected UUID for chassis_uuid: nope'],
      ['/v1/ports', undefined, undefined, 'Missing mandatory parameter: port_uuid'],
      ['/v1/nodes/db1/vifs', undefined, undefined, 'Missing mandatory parameter: vif_id'],
      ['/v1/nodes/db1/vmedia', { device_types: ['cdrom', 'usb'] }, undefined, 'Invalid device type(s) usb (valid are disk, cdrom, floppy)'],
      ['/v1/nodes/db1/vmedia', { device_types: [1] }, undefined, 'Expected string for device_types: 1'],
      ['/v1/nodes/db1/vmedia', 'device_types=usb', FORM, 'Invalid device type(s) usb (valid are disk, cdrom, floppy)'],
    ];
    for (const [path, body, headers, message] of cases) {
      const r = await s.request('DELETE', path, { version: V, body, headers });
      assert.equal(r.status, 400, `${path} ${JSON.stringify(body)}`);
      assert.equal(faultOf(r.json), message, path);
    }
  });

  it('deletes the object a collection DELETE names in its query or body', async () => {
    const port = async (mac: string): Promise<string> =>
      (await s.request('POST', '/v1/ports', { version: V, body: { node_uuid: uuid, address: mac } })).json.uuid;
    const p1 = await port('52:54:00:db:00:01');
    const p2 = await port('52:54:00:db:00:02');
    assert.equal((await s.request('DELETE', `/v1/ports?port_uuid=${p1}`, { version: V })).status, 204);
    assert.equal((await s.request('DELETE', '/v1/ports', { version: V, body: { port_uuid: p2 } })).status, 204);
    assert.equal((await s.request('GET', `/v1/ports/${p1}`, { version: V })).status, 404);
    assert.equal((await s.request('GET', `/v1/ports/${p2}`, { version: V })).status, 404);
    const other = (await s.request('POST', '/v1/nodes', { version: V, body: { driver: 'fake-hardware', name: 'db2' } })).json.uuid;
    assert.equal((await s.request('DELETE', '/v1/nodes', { version: V, body: { node_ident: 'db2' } })).status, 204);
    await assert.rejects(nodesRepo.get(s.db, other));
  });

  it('detaches the virtual media types a body lists, a string or a list, as given', async () => {
    const r = await s.request('DELETE', '/v1/nodes/db1/vmedia', { version: V, body: { device_types: 'Floppy, CDROM' } });
    assert.equal(r.status, 204);
    const expected = `Could not detach device(s) ['floppy', 'cdrom'] from node ${uuid}: Driver fake-hardware does not ` +
      'support detach_virtual_media (disabled or not implemented).';
    for (let i = 0; i < 200 && (await nodesRepo.get(s.db, uuid)).last_error !== expected; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    assert.equal((await nodesRepo.get(s.db, uuid)).last_error, expected);
  });
});
