/**
 * openstacksdk's baremetal proxy (python3-openstacksdk, unmodified) with its own microversion
 * negotiation: nodes, ports, chassis and drivers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverFor } from './client-server';
import { type ClientSet } from '../../support/python';

/** The suite, run with one release's clients. */
export function sdkSuite(clients: ClientSet): void {
  const server = serverFor(clients);

  const PRELUDE = `
import json, os, openstack
conn = openstack.connection.Connection(auth_type='none', baremetal_endpoint_override=os.environ['IRONIC_URL'])
bm = conn.baremetal
out = {}
`;

  async function runSdk(body: string): Promise<Record<string, unknown>> {
    const res = await clients.python(`${PRELUDE}${body}\nprint(json.dumps(out, default=str))\n`, server().url);
    assert.equal(res.code, 0, res.stderr);
    return JSON.parse(res.stdout.trim().split('\n').pop() as string) as Record<string, unknown>;
  }

  test('sdk creates, lists, updates and deletes nodes', async () => {
    const out = await runSdk(`
# openstacksdk 0.101's create_node moves a new node through manage and provide to available; 4.x
# keeps the server's default (enroll) unless provision_state is given.
n = bm.create_node(driver='fake-hardware', name='sdk-1', properties={'cpus': 8}, driver_info={'ipmi_password': 'x'})
out['created'] = {'name': n.name, 'state': n.provision_state, 'driver_info': n.driver_info, 'cpus': n.properties.get('cpus')}
out['names'] = sorted(x.name for x in bm.nodes())
out['detail_driver'] = [x.driver for x in bm.nodes(details=True)]
n = bm.update_node(n, extra={'k': 'v'})
out['extra'] = bm.get_node('sdk-1').extra
n2 = bm.patch_node('sdk-1', [{'op': 'add', 'path': '/properties/memory_mb', 'value': 2048}])
out['props'] = n2.properties
out['fields'] = [dict(uuid=bool(x.id), name=x.name) for x in bm.nodes(fields=['uuid', 'name'])]
bm.delete_node('sdk-1')
out['after'] = [x.name for x in bm.nodes()]
try:
    bm.get_node('sdk-1')
    out['missing'] = 'found'
except openstack.exceptions.NotFoundException as e:
    out['missing'] = 'not found'
`);
    const initial = clients.release === '2023.1' ? 'available' : 'enroll';
    assert.deepEqual(out.created, { name: 'sdk-1', state: initial, driver_info: { ipmi_password: '******' }, cpus: 8 });
    assert.deepEqual(out.names, ['sdk-1']);
    assert.deepEqual(out.detail_driver, ['fake-hardware']);
    assert.deepEqual(out.extra, { k: 'v' });
    assert.deepEqual(out.props, { cpus: 8, memory_mb: 2048 });
    assert.deepEqual(out.fields, [{ uuid: true, name: 'sdk-1' }]);
    assert.deepEqual(out.after, []);
    assert.equal(out.missing, 'not found');
  });

  test('sdk ports, chassis and drivers', async () => {
    const out = await runSdk(`
n = bm.create_node(driver='fake-hardware', name='sdk-2')
c = bm.create_chassis(description='sdk chassis')
p = bm.create_port(node_id=n.id, address='52:54:00:ab:cd:ef', extra={'a': 1})
out['port'] = {'address': p.address, 'node': p.node_id == n.id, 'extra': p.extra}
out['ports_by_node'] = [x.address for x in bm.ports(node=n.id, details=True)]
out['chassis'] = [x.description for x in bm.chassis(details=True)]
out['drivers'] = [d.name for d in bm.drivers()]
bm.delete_port(p)
bm.delete_chassis(c)
bm.delete_node(n)
out['left'] = [len(list(bm.ports())), len(list(bm.chassis())), len(list(bm.nodes()))]
`);
    assert.deepEqual(out.port, { address: '52:54:00:ab:cd:ef', node: true, extra: { a: 1 } });
    assert.deepEqual(out.ports_by_node, ['52:54:00:ab:cd:ef']);
    assert.deepEqual(out.chassis, ['sdk chassis']);
    assert.deepEqual(out.drivers, ['fake-hardware']);
    assert.deepEqual(out.left, [0, 0, 0]);
  });
}
