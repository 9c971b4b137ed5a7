/**
 * `openstack baremetal` (python3-openstackclient with the ironicclient plugin, unmodified): the same
 * command groups through OSC's own argument handling and output formatting.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverFor } from './client-server';
import { parseJson, type ClientSet } from '../../support/python';

/** The suite, run with one release's clients. */
export function openstackCliSuite(clients: ClientSet): void {
  type Row = Record<string, unknown>;
  const server = serverFor(clients);

  async function os<T = Row>(args: string[]): Promise<T> {
    return parseJson<T>(await clients.openstack(server().url, ['baremetal', ...args, '-f', 'json']));
  }

  test('openstack baremetal node create/show/list/set/unset/delete', async () => {
    const node = await os(['node', 'create', '--driver', 'fake-hardware', '--name', 'osc-1', '--driver-info', 'redfish_password=pw',
      '--driver-info', 'redfish_address=https://bmc']);
    assert.equal(node.name, 'osc-1');
    assert.deepEqual(node.driver_info, { redfish_password: '******', redfish_address: 'https://bmc' });
    assert.equal(node.owner, null);
    const setOwner = await clients.openstack(server().url, ['baremetal', 'node', 'set', 'osc-1', '--owner', 'proj-a']);
    assert.equal(setOwner.code, 0, setOwner.stderr);

    const list = await os<Row[]>(['node', 'list', '--long']);
    assert.equal(list.length, 1);
    assert.equal(list[0].Name, 'osc-1');
    assert.equal(list[0].Owner, 'proj-a');

    const byOwner = await os<Row[]>(['node', 'list', '--owner', 'proj-a']);
    assert.deepEqual(byOwner.map((n) => n.Name), ['osc-1']);
    assert.deepEqual(await os<Row[]>(['node', 'list', '--owner', 'proj-b']), []);

    let res = await clients.openstack(server().url, ['baremetal', 'node', 'set', 'osc-1', '--instance-info', 'image_source=http://img/a.qcow2', '--description', 'rack1 box']);
    assert.equal(res.code, 0, res.stderr);
    const shown = await os(['node', 'show', 'osc-1', '--fields', 'instance_info', 'description']);
    assert.deepEqual(shown, { instance_info: { image_source: 'http://img/a.qcow2' }, description: 'rack1 box' });
    const badGroup = await clients.openstack(server().url, ['baremetal', 'node', 'set', 'osc-1', '--conductor-group', 'rack1']);
    assert.notEqual(badGroup.code, 0, 'no conductor serves group rack1');
    assert.match(badGroup.stderr, /No valid host was found/);

    res = await clients.openstack(server().url, ['baremetal', 'node', 'unset', 'osc-1', '--instance-info', 'image_source', '--owner']);
    assert.equal(res.code, 0, res.stderr);
    const after = await os(['node', 'show', 'osc-1', '--fields', 'instance_info', 'owner']);
    assert.deepEqual(after, { instance_info: {}, owner: null });

    res = await clients.openstack(server().url, ['baremetal', 'node', 'show', 'no-such-node']);
    assert.notEqual(res.code, 0);
    assert.match(res.stderr, /Node no-such-node could not be found/);

    res = await clients.openstack(server().url, ['baremetal', 'node', 'delete', 'osc-1']);
    assert.equal(res.code, 0, res.stderr);
    assert.deepEqual(await os<Row[]>(['node', 'list']), []);
  });

  test('openstack baremetal port, port group and chassis', async () => {
    const node = await os(['node', 'create', '--driver', 'fake-hardware', '--name', 'osc-2']);
    const chassis = await os(['chassis', 'create', '--description', 'c1']);
    assert.equal(chassis.description, 'c1');
    const group = await os(['port', 'group', 'create', '--node', String(node.uuid), '--name', 'pg1']);
    assert.equal(group.name, 'pg1');
    const port = await os(['port', 'create', 'AA:BB:CC:DD:EE:01', '--node', String(node.uuid)]);
    assert.equal(port.address, 'aa:bb:cc:dd:ee:01');
    const ports = await os<Row[]>(['port', 'list', '--address', 'aa:bb:cc:dd:ee:01']);
    assert.deepEqual(ports.map((p) => p.UUID), [port.uuid]);
    const bad = await clients.openstack(server().url, ['baremetal', 'port', 'create', 'not-a-mac', '--node', String(node.uuid)]);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /not-a-mac/);
    for (const args of [['port', 'delete', String(port.uuid)], ['port', 'group', 'delete', 'pg1'], ['chassis', 'delete', String(chassis.uuid)], ['node', 'delete', 'osc-2']]) {
      const res = await clients.openstack(server().url, ['baremetal', ...args]);
      assert.equal(res.code, 0, res.stderr);
    }
    assert.deepEqual(await os<Row[]>(['port', 'list']), []);
    assert.deepEqual(await os<Row[]>(['chassis', 'list']), []);
  });

  test('openstack baremetal driver list/show', async () => {
    const drivers = await os<Row[]>(['driver', 'list']);
    assert.deepEqual(drivers.map((d) => d['Supported driver(s)']), ['fake-hardware']);
    const shown = await os(['driver', 'show', 'fake-hardware']);
    assert.equal(shown.name, 'fake-hardware');
    assert.equal(shown.default_deploy_interface, 'fake');
  });
}
