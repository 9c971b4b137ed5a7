/**
 * The conductor's port and portgroup write rules (manager.update_port / update_portgroup and
 * utils.validate_port_physnet): rewiring only in enroll/inspecting/manageable or maintenance, no new
 * address on a deployed node, members sharing one physical network, portgroups moving only empty.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Conflict, InvalidState, PortgroupNotEmpty } from '../../src/common/errors';
import * as nodes from '../../src/db/repositories/nodes';
import { conductorFixture } from './support';

const fx = conductorFixture('ports-host');

let mac = 0;
const nextMac = () => `52:54:00:00:00:${(++mac).toString(16).padStart(2, '0')}`;

async function nodeIn(name: string, state: string, extra: Record<string, unknown> = {}) {
  const node = await fx.svc.api.createNode({ name, driver: 'fake-hardware' });
  await nodes.updateFields(fx.tmp.db, node, { provision_state: state, ...extra });
  return node;
}

test('connectivity fields change only in the association states or in maintenance', async () => {
  const node = await nodeIn('avail', 'available');
  const port = await fx.svc.api.createPort({ node_id: node.id, address: nextMac() });
  await assert.rejects(fx.svc.api.updatePort(port.uuid, { pxe_enabled: false }), (e: Error) => e instanceof InvalidState &&
    e.message === `Port ${port.uuid} can not have any connectivity attributes (portgroup_id, pxe_enabled, ` +
      `local_link_connection, physical_network) updated unless node ${node.uuid} is in a enroll, inspecting, ` +
      'inspect wait, manageable state or in maintenance mode. The current state is available.');
  assert.deepEqual((await fx.svc.api.updatePort(port.uuid, { extra: { a: 1 } })).extra, { a: 1 }, 'other fields still change');
  await nodes.updateFields(fx.tmp.db, node, { maintenance: true });
  assert.equal((await fx.svc.api.updatePort(port.uuid, { physical_network: 'physnet1' })).physical_network, 'physnet1');
});

test('a deployed node keeps its port addresses unless in maintenance', async () => {
  const node = await nodeIn('active', 'active');
  const port = await fx.svc.api.createPort({ node_id: node.id, address: nextMac() });
  await assert.rejects(fx.svc.api.updatePort(port.uuid, { address: nextMac() }), (e: Error) => e instanceof InvalidState &&
    e.message === `Cannot update hardware address for port ${port.uuid} as node ${node.uuid} is active or has instance UUID assigned`);
  await nodes.updateFields(fx.tmp.db, node, { maintenance: true });
  const address = nextMac();
  assert.equal((await fx.svc.api.updatePort(port.uuid, { address })).address, address);
});

test('a portgroup member must share the physical network of the other members', async () => {
  const node = await nodeIn('physnets', 'manageable');
  const pg = await fx.svc.api.createPortgroup({ node_id: node.id, name: 'bond0' });
  await fx.svc.api.createPort({ node_id: node.id, address: nextMac(), portgroup_id: pg.id, physical_network: 'physnet1' });
  await assert.rejects(
    fx.svc.api.createPort({ node_id: node.id, address: nextMac(), portgroup_id: pg.id, physical_network: 'physnet2' }),
    (e: Error) => e instanceof Conflict && e.message === 'Port with physical network physnet2 cannot become a member of ' +
      `port group ${pg.uuid} which has ports in physical network physnet1.`);
  const loose = await fx.svc.api.createPort({ node_id: node.id, address: nextMac() });
  await assert.rejects(fx.svc.api.updatePort(loose.uuid, { portgroup_id: pg.id }),
    (e: Error) => e instanceof Conflict && e.message.startsWith('Port with physical network None cannot become'));
  const joined = await fx.svc.api.updatePort(loose.uuid, { portgroup_id: pg.id, physical_network: 'physnet1' });
  assert.equal(joined.portgroup_id, pg.id);
});

test('a portgroup moves to another node only when empty and that node may be rewired', async () => {
  const from = await nodeIn('pg-from', 'manageable');
  const busy = await nodeIn('pg-busy', 'available');
  const idle = await nodeIn('pg-idle', 'enroll');
  const pg = await fx.svc.api.createPortgroup({ node_id: from.id, name: 'bond1' });
  await assert.rejects(fx.svc.api.updatePortgroup(pg.uuid, { node_id: busy.id }), (e: Error) => e instanceof InvalidState &&
    e.message === `Portgroup ${pg.uuid} can not be associated to node ${busy.uuid} unless the node is in a enroll, ` +
      'inspecting, inspect wait, manageable state or in maintenance mode.');
  const member = await fx.svc.api.createPort({ node_id: from.id, address: nextMac(), portgroup_id: pg.id });
  await assert.rejects(fx.svc.api.updatePortgroup(pg.uuid, { node_id: idle.id }), (e: Error) => e instanceof PortgroupNotEmpty &&
    e.message === `Portgroup ${pg.uuid} can not be associated with node ${idle.uuid} because there are ports associated ` +
      'with this portgroup.');
  await fx.svc.api.updatePort(member.uuid, { portgroup_id: null });
  assert.equal((await fx.svc.api.updatePortgroup(pg.uuid, { node_id: idle.id })).node_id, idle.id);
});
