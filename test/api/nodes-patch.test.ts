/**
 * PATCH /v1/nodes/{ident}: accepted changes reach the database through the conductor; every refused
 * patch answers Ironic's status and message and leaves the stored node exactly as it was.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer as startNodeServer } from './support/server';
import type { TestServer } from './support/server';
import * as nodesRepo from '../../src/db/repositories/nodes';

const V = '1.82';

function fault(res: { json: any }): string {
  return JSON.parse(res.json.error_message).faultstring;
}

describe('node PATCH', () => {
  let s: TestServer;
  let uuid: string;

  before(async () => {
    s = await startNodeServer();
    uuid = (await s.request('POST', '/v1/nodes', { version: V, body: { driver: 'fake-hardware', name: 'p1' } })).json.uuid;
    await s.request('POST', '/v1/nodes', { version: V, body: { driver: 'fake-hardware', name: 'p2' } });
  });
  after(async () => { await s.stop(); });

  it('applies a patch and returns the whole node', async () => {
    const res = await s.request('PATCH', '/v1/nodes/p1', { version: V, body: [
      { op: 'add', path: '/extra/foo', value: 'bar' },
      { op: 'replace', path: '/description', value: 'desc' },
      { op: 'replace', path: '/maintenance', value: 'true' },
      { op: 'add', path: '/driver_info/ipmi_password', value: 'pw' },
    ] });
    assert.equal(res.status, 200);
    assert.deepEqual(res.json.extra, { foo: 'bar' });
    assert.equal(res.json.description, 'desc');
    assert.equal(res.json.maintenance, true);
    assert.deepEqual(res.json.driver_info, { ipmi_password: '******' });
    const stored = await nodesRepo.get(s.db, uuid);
    assert.deepEqual(stored.extra, { foo: 'bar' });
    assert.equal(stored.driver_info?.ipmi_password, 'pw');
  });

  it('refuses bad patches with Ironic\'s answers and leaves the node unchanged', async () => {
    const before = await nodesRepo.get(s.db, uuid);
    const allowed = 'automated_clean, bios_interface, boot_interface, chassis_uuid, conductor_group, console_interface, ' +
      'deploy_interface, description, disable_power_off, driver, driver_info, extra, inspect_interface, instance_info, instance_uuid, lessee, ' +
      'maintenance, management_interface, name, network_data, network_interface, owner, power_interface, properties, ' +
      'protected, protected_reason, raid_interface, rescue_interface, resource_class, retired, retired_reason, shard, ' +
      'storage_interface, vendor_interface, parent_node, firmware_interface';
    const cases: [string, string, unknown, number, string | null][] = [
      ['p1', V, [{ op: 'add', path: '/bogus', value: 1 }], 400, `Cannot patch /bogus. Only the following can be updated: ${allowed}`],
      ['p1', V, { op: 'remove', path: '/driver' }, 400,
        "Schema error for patch: {'op': 'remove', 'path': '/driver'} is not of type 'array'"],
      ['nope', V, { op: 'remove', path: '/driver' }, 400,
        "Schema error for patch: {'op': 'remove', 'path': '/driver'} is not of type 'array'"],
      ['p1', V, [{ op: 'add', path: '/traits', value: ['CUSTOM_A'] }], 400,
        `Cannot patch /traits. Only the following can be updated: ${allowed}`],
      ['p1', V, [{ op: 'replace', path: '/name', value: 'p2' }], 409, 'A node with name p2 already exists.'],
      ['p1', V, [{ op: 'replace', path: '/name', value: 'bad name' }], 400, "Node p1: Cannot change name to invalid name 'bad name'"],
      ['p1', '1.4', [{ op: 'replace', path: '/extra/x', value: 1 }], 404, 'Node p1 could not be found.'],
      [uuid, '1.4', [{ op: 'replace', path: '/name', value: 'x' }], 406, null],
      ['p1', V, [{ op: 'replace', path: '/maintenance', value: 'maybe' }], 400,
        "Invalid maintenance: Unrecognized value 'maybe', acceptable values are: '0', '1', 'f', 'false', 'n', 'no', 'off', 'on', 't', 'true', 'y', 'yes'"],
      ['p1', V, [{ op: 'replace', path: '/instance_uuid', value: 'notauuid' }], 400, 'Expected UUID for instance_uuid: notauuid'],
      ['p1', V, [{ op: 'replace', path: '/properties', value: 'str' }], 400,
        "Schema error for patch: 'str' is not of type 'object', 'null'"],
      ['p1', V, [{ op: 'remove', path: '/extra/nothere' }], 400,
        "Couldn't apply patch '{'op': 'remove', 'path': '/extra/nothere'}'. Reason: can't remove a non-existent object 'nothere'"],
      ['p1', V, [{ op: 'replace', path: '/shard', value: 's' }, { op: 'replace', path: '/bogus', value: 1 }], 400,
        `Cannot patch /bogus. Only the following can be updated: ${allowed}`],
      ['p1', '1.81', [{ op: 'replace', path: '/shard', value: 's1' }], 406, null],
      ['p1', '1.44', [{ op: 'replace', path: '/driver', value: 'fake-hardware' }], 406, null],
      ['p1', V, [{ op: 'replace', path: '/driver', value: 'nope' }], 400, null],
      ['p1', V, [{ op: 'replace', path: '/deploy_interface', value: 'nope' }], 400, null],
      ['p1', V, [{ op: 'replace', path: '/chassis_uuid', value: '1be26c0e-2e3f-4dc3-9ff6-b4b6b3a6e4a1' }], 400,
        'Chassis 1be26c0e-2e3f-4dc3-9ff6-b4b6b3a6e4a1 could not be found.'],
    ];
    for (const [ident, version, body, status, message] of cases) {
      const path = version === '1.44' ? `/v1/nodes/${ident}?reset_interfaces=true` : `/v1/nodes/${ident}`;
      const res = await s.request('PATCH', path, { version, body });
      assert.equal(res.status, status, JSON.stringify(body));
      if (message !== null) assert.equal(fault(res), message, JSON.stringify(body));
    }
    const resetOnly = await s.request('PATCH', '/v1/nodes/p1?reset_interfaces=true', { version: V,
      body: [{ op: 'replace', path: '/extra', value: {} }] });
    assert.equal(fault(resetOnly), "The reset_interfaces parameter can only be used when changing the node's driver.");
    const malformed = await s.request('PATCH', '/v1/nodes/p1', { version: V, body: '[{"op": ' });
    assert.ok(malformed.status >= 400);
    // Refusals from the conductor come after it took and released the node's lock, which moves
    // updated_at in Ironic too (its reservation UPDATEs bump it); every other column must be as before.
    const { updated_at: _after, ...afterRest } = await nodesRepo.get(s.db, uuid);
    const { updated_at: _before, ...beforeRest } = before;
    assert.deepEqual(afterRest, beforeRest);
  });

  it('refuses updates during a state transition and allows the maintenance instance_uuid escape', async () => {
    await s.db.knex('nodes').where({ uuid }).update({ provision_state: 'deploying', target_provision_state: 'active',
      instance_uuid: '1be26c0e-2e3f-4dc3-9ff6-b4b6b3a6e4a1', maintenance: 1 });
    const busy = await s.request('PATCH', '/v1/nodes/p1', { version: V, body: [{ op: 'add', path: '/extra/x', value: 1 }] });
    assert.equal(busy.status, 409);
    assert.equal(fault(busy), 'Node p1 can not be updated while a state transition is in progress.');
    const escape = await s.request('PATCH', '/v1/nodes/p1', { version: V, body: [{ op: 'remove', path: '/instance_uuid' }] });
    assert.equal(escape.status, 200);
    assert.equal(escape.json.instance_uuid, null);
    await s.db.knex('nodes').where({ uuid }).update({ provision_state: 'inspecting', target_provision_state: 'manageable' });
    const inspecting = await s.request('PATCH', '/v1/nodes/p1', { version: V, body: [{ op: 'add', path: '/extra/x', value: 1 }] });
    assert.equal(inspecting.status, 409);
    assert.equal(fault(inspecting), `Cannot update node "${uuid}" while it is in state "inspecting".`);
    await s.db.knex('nodes').where({ uuid }).update({ provision_state: 'enroll', target_provision_state: null, maintenance: 0 });
  });
});
