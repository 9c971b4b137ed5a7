/**
 * The `baremetal` CLI (python3-ironicclient, unmodified) against a fresh server: nodes, ports,
 * portgroups, chassis and drivers, each command checked on its output.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverFor } from './client-server';
import { parseJson, type RunResult, type ClientSet } from '../../support/python';
import { referenceRelease } from '../../support/reference-ironic';

/** The suite, run with one release's clients. */
export function baremetalCliSuite(clients: ClientSet): void {
  type Row = Record<string, unknown>;
  const server = serverFor(clients);

  async function bm(args: string[], version?: string): Promise<RunResult> {
    return clients.baremetal(server().url, args, version);
  }

  async function bmJson<T = Row>(args: string[], version?: string): Promise<T> {
    return parseJson<T>(await bm([...args, '-f', 'json'], version));
  }

  test('node create, show by name and uuid, list with --long, --fields and filters', async () => {
    const created = await bmJson(['node', 'create', '--driver', 'fake-hardware', '--name', 'cli-node-1',
      '--driver-info', 'ipmi_password=secret', '--driver-info', 'ipmi_address=10.0.0.1',
      '--property', 'cpus=4', '--resource-class', 'gold', '--extra', 'rack=r1']);
    assert.equal(created.name, 'cli-node-1');
    assert.equal(created.driver, 'fake-hardware');
    assert.equal(created.provision_state, 'enroll');
    assert.equal(created.resource_class, 'gold');
    assert.deepEqual(created.properties, { cpus: 4 });
    assert.deepEqual(created.driver_info, { ipmi_password: '******', ipmi_address: '10.0.0.1' });
    assert.equal(created.power_interface, 'fake');
    assert.match(String(created.uuid), /^[0-9a-f-]{36}$/);

    const byName = await bmJson(['node', 'show', 'cli-node-1']);
    assert.equal(byName.uuid, created.uuid);
    const byUuid = await bmJson(['node', 'show', String(created.uuid), '--fields', 'uuid', 'name', 'extra']);
    assert.deepEqual(byUuid, { uuid: created.uuid, name: 'cli-node-1', extra: { rack: 'r1' } });

    await bmJson(['node', 'create', '--driver', 'fake-hardware', '--name', 'cli-node-2', '--resource-class', 'silver']);
    const list = await bmJson<Row[]>(['node', 'list']);
    assert.deepEqual(list.map((n) => n.Name).sort(), ['cli-node-1', 'cli-node-2']);
    assert.deepEqual(Object.keys(list[0]).sort(), ['Instance UUID', 'Maintenance', 'Name', 'Power State', 'Provisioning State', 'UUID']);

    const long = await bmJson<Row[]>(['node', 'list', '--long']);
    const one = long.find((n) => n.Name === 'cli-node-1') as Row;
    assert.equal(one.Driver, 'fake-hardware');
    assert.equal(one['Resource Class'], 'gold');
    assert.deepEqual(one['Driver Info'], { ipmi_password: '******', ipmi_address: '10.0.0.1' });

    const fields = await bmJson<Row[]>(['node', 'list', '--fields', 'name', 'driver', 'resource_class']);
    assert.deepEqual(fields.map((n) => Object.keys(n).sort()), [['Driver', 'Name', 'Resource Class'], ['Driver', 'Name', 'Resource Class']]);

    const byDriver = await bmJson<Row[]>(['node', 'list', '--driver', 'fake-hardware']);
    assert.equal(byDriver.length, 2);
    assert.deepEqual(await bmJson<Row[]>(['node', 'list', '--driver', 'ipmi']), []);
    const byClass = await bmJson<Row[]>(['node', 'list', '--resource-class', 'gold']);
    assert.deepEqual(byClass.map((n) => n.Name), ['cli-node-1']);
    const enrolled = await bmJson<Row[]>(['node', 'list', '--provision-state', 'enroll']);
    assert.equal(enrolled.length, 2);
    const limited = await bmJson<Row[]>(['node', 'list', '--limit', '1']);
    assert.equal(limited.length, 1);
  });

  test('node set and unset change fields and reject bad input', async () => {
    let res = await bm(['node', 'set', 'cli-node-1', '--extra', 'owner=ops', '--property', 'memory_mb=1024', '--description', 'lab box']);
    assert.equal(res.code, 0, res.stderr);
    let node = await bmJson(['node', 'show', 'cli-node-1', '--fields', 'extra', 'properties', 'description']);
    assert.deepEqual(node.extra, { rack: 'r1', owner: 'ops' });
    assert.deepEqual(node.properties, { cpus: 4, memory_mb: 1024 });
    assert.equal(node.description, 'lab box');

    res = await bm(['node', 'unset', 'cli-node-1', '--extra', 'rack', '--property', 'cpus', '--description']);
    assert.equal(res.code, 0, res.stderr);
    node = await bmJson(['node', 'show', 'cli-node-1', '--fields', 'extra', 'properties', 'description']);
    assert.deepEqual(node.extra, { owner: 'ops' });
    assert.deepEqual(node.properties, { memory_mb: 1024 });
    assert.equal(node.description, null);

    res = await bm(['node', 'set', 'cli-node-1', '--name', 'cli-node-2']);
    assert.notEqual(res.code, 0);
    assert.match(res.stderr, /already exists/);

    res = await bm(['node', 'set', 'cli-node-1', '--maintenance']);
    assert.notEqual(res.code, 0, 'set --maintenance is not a flag of node set');
    res = await bm(['node', 'maintenance', 'set', 'cli-node-1', '--reason', 'disk swap']);
    assert.equal(res.code, 0, res.stderr);
    node = await bmJson(['node', 'show', 'cli-node-1', '--fields', 'maintenance', 'maintenance_reason']);
    assert.deepEqual(node, { maintenance: true, maintenance_reason: 'disk swap' });
    res = await bm(['node', 'maintenance', 'unset', 'cli-node-1']);
    assert.equal(res.code, 0, res.stderr);
    node = await bmJson(['node', 'show', 'cli-node-1', '--fields', 'maintenance', 'maintenance_reason']);
    assert.deepEqual(node, { maintenance: false, maintenance_reason: null });
  });

  test('chassis, port and portgroup CRUD', async () => {
    const chassis = await bmJson(['chassis', 'create', '--description', 'rack 7', '--extra', 'row=b']);
    assert.equal(chassis.description, 'rack 7');
    assert.deepEqual(chassis.extra, { row: 'b' });
    const chassisList = await bmJson<Row[]>(['chassis', 'list']);
    assert.deepEqual(chassisList.map((c) => c.UUID), [chassis.uuid]);
    let res = await bm(['chassis', 'set', String(chassis.uuid), '--description', 'rack 8']);
    assert.equal(res.code, 0, res.stderr);
    assert.equal((await bmJson(['chassis', 'show', String(chassis.uuid)])).description, 'rack 8');

    const node = await bmJson(['node', 'show', 'cli-node-1', '--fields', 'uuid']);
    const pg = await bmJson(['port', 'group', 'create', '--node', String(node.uuid), '--name', 'bond0', '--address', '52:54:00:00:00:aa', '--mode', '802.3ad'], '1.26');
    assert.equal(pg.name, 'bond0');
    assert.equal(pg.mode, '802.3ad');
    assert.equal(pg.node_uuid, node.uuid);

    const port = await bmJson(['port', 'create', '52:54:00:12:34:56', '--node', String(node.uuid), '--port-group', String(pg.uuid),
      '--local-link-connection', 'switch_id=aa:bb:cc:dd:ee:ff', '--local-link-connection', 'port_id=Gig0/1', '--pxe-enabled', 'true'], '1.34');
    assert.equal(port.address, '52:54:00:12:34:56');
    assert.equal(port.node_uuid, node.uuid);
    assert.equal(port.portgroup_uuid, pg.uuid);
    assert.deepEqual(port.local_link_connection, { switch_id: 'aa:bb:cc:dd:ee:ff', port_id: 'Gig0/1' });

    const dup = await bm(['port', 'create', '52:54:00:12:34:56', '--node', String(node.uuid)]);
    assert.notEqual(dup.code, 0);
    assert.match(dup.stderr, /A port with MAC address 52:54:00:12:34:56 already exists/);

    const ports = await bmJson<Row[]>(['port', 'list', '--node', 'cli-node-1']);
    assert.deepEqual(ports.map((p) => p.Address), ['52:54:00:12:34:56']);
    const longPorts = await bmJson<Row[]>(['port', 'list', '--long', '--address', '52:54:00:12:34:56']);
    assert.equal(longPorts[0]['Portgroup UUID'], pg.uuid);
    res = await bm(['port', 'set', String(port.uuid), '--extra', 'vif=x'], '1.34');
    assert.equal(res.code, 0, res.stderr);
    assert.deepEqual((await bmJson(['port', 'show', String(port.uuid), '--fields', 'extra'])).extra, { vif: 'x' });
    const pgPorts = await bmJson<Row[]>(['port', 'group', 'list', '--node', 'cli-node-1'], '1.26');
    assert.deepEqual(pgPorts.map((p) => p.Name), ['bond0']);

    res = await bm(['port', 'delete', String(port.uuid)]);
    assert.equal(res.code, 0, res.stderr);
    res = await bm(['port', 'group', 'delete', 'bond0']);
    assert.equal(res.code, 0, res.stderr);
    assert.deepEqual(await bmJson<Row[]>(['port', 'list']), []);
    res = await bm(['chassis', 'delete', String(chassis.uuid)]);
    assert.equal(res.code, 0, res.stderr);
    assert.deepEqual(await bmJson<Row[]>(['chassis', 'list']), []);
  });

  test('driver list and show report the enabled hardware types', async () => {
    const drivers = await bmJson<Row[]>(['driver', 'list']);
    const names = drivers.map((d) => d['Supported driver(s)']).sort();
    assert.deepEqual(names, ['fake-hardware']);
    const fake = drivers.find((d) => d['Supported driver(s)'] === 'fake-hardware') as Row;
    assert.deepEqual(fake['Active host(s)'], 'reference');
    const shown = await bmJson(['driver', 'show', 'fake-hardware']);
    assert.equal(shown.name, 'fake-hardware');
    assert.equal(shown.default_power_interface, 'fake');
    assert.equal(shown.enabled_deploy_interfaces, 'fake');
    assert.deepEqual(String(shown.enabled_bios_interfaces).split(', ').sort(), ['fake', 'no-bios']);
    const missing = await bm(['driver', 'show', 'no-such-driver']);
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /Could not find the following driver\(s\) or hardware type\(s\): no-such-driver/);
  });

  test('node passthru list and call reach the fake vendor interface', async () => {
    const methods = await bmJson<Row[]>(['node', 'passthru', 'list', 'cli-node-1']);
    // 29.0.5's FakeVendorB (and ironic-ts's) adds log_passthrough; the 21.4.4 reference lacks it.
    const olderReference = server().kind === 'reference' && referenceRelease() === '2023.1';
    assert.deepEqual(methods.map((m) => m.Name).sort(),
      ['fourth_method_shared_lock', ...(olderReference ? [] : ['log_passthrough']), 'second_method', 'third_method_sync']);
    const second = methods.find((m) => m.Name === 'second_method') as Row;
    assert.equal(second['Supported HTTP methods'], 'POST');
    assert.equal(second.Async, true);
    // The client names the method in the path: /v1/nodes/{node}/vendor_passthru/{method}.
    let res = await bm(['node', 'passthru', 'call', 'cli-node-1', 'second_method', '--arg', 'bar=kazoo']);
    assert.equal(res.code, 0, res.stderr);
    res = await bm(['node', 'passthru', 'call', 'cli-node-1', 'first_method', '--arg', 'bar=baz']);
    assert.notEqual(res.code, 0);
    assert.match(res.stderr, /No handler for method first_method \(HTTP 400\)/);
    res = await bm(['node', 'passthru', 'call', 'cli-node-1', 'second_method']);
    assert.notEqual(res.code, 0);
    assert.match(res.stderr, /Parameter 'bar' not passed to method 'second_method'\. \(HTTP 400\)/);
  });

  test('node delete removes the node and a second delete says it is gone', async () => {
    let res = await bm(['node', 'delete', 'cli-node-2']);
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout + res.stderr, /Deleted node cli-node-2/);
    res = await bm(['node', 'show', 'cli-node-2']);
    assert.notEqual(res.code, 0);
    assert.match(res.stderr, /Node cli-node-2 could not be found/);
    const list = await bmJson<Row[]>(['node', 'list']);
    assert.deepEqual(list.map((n) => n.Name), ['cli-node-1']);
  });
}
