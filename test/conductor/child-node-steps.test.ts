/**
 * Steps meant for child nodes (execute_on_child_nodes, limit_child_node_execution) as Ironic 2025.1's
 * step runner handles them: each child, locked in turn, runs the step itself; a child held elsewhere
 * fails the step; a result other than nothing fails the parent's flow with the child's message. As in
 * 29.0.5, validation leaves such steps out of a user's step list, so these tests seed the node's list
 * as a driver's own steps would reach it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { continueNodeClean } from '../../src/conductor/continue-clean';
import type { NodeRecord } from '../../src/db/models';
import * as biosSettings from '../../src/db/repositories/bios';
import * as nodes from '../../src/db/repositories/nodes';
import { conductorFixture } from './support';

const fx = conductorFixture('child-steps-host');
let counter = 0;

const FIRST = { interface: 'bios', step: 'factory_reset', args: {}, priority: 0 };
const marker = (value: string, extra: Record<string, unknown> = {}) => ({
  interface: 'bios', step: 'apply_configuration', args: { settings: [{ name: 'marker', value }] }, priority: 0,
  execute_on_child_nodes: true, ...extra,
});

async function family(): Promise<{ parent: NodeRecord; children: NodeRecord[] }> {
  const n = ++counter;
  const parent = await fx.svc.api.createNode({ name: `cs-parent-${n}`, driver: 'fake-hardware' });
  const children = [];
  for (const i of [1, 2]) {
    children.push(await fx.svc.api.createNode({ name: `cs-child-${n}-${i}`, driver: 'fake-hardware', parent_node: parent.uuid }));
  }
  await fx.svc.api.createNode({ name: `cs-other-${n}`, driver: 'fake-hardware' });
  return { parent, children };
}

/** The parent part-way through a manual cleaning, its first step done and `step` next. */
async function cleanNext(parent: NodeRecord, step: Record<string, unknown>): Promise<NodeRecord> {
  const node = await nodes.find(fx.tmp.db, parent.uuid);
  await nodes.updateFields(fx.tmp.db, node, {
    provision_state: 'cleaning', target_provision_state: 'manageable', clean_step: FIRST,
    driver_internal_info: { clean_steps: [FIRST, step], clean_step_index: 0 },
  });
  await fx.svc.manager.tasks.run(parent.uuid, { purpose: 'test' }, (task) => continueNodeClean(task));
  return nodes.find(fx.tmp.db, parent.uuid);
}

async function markerOf(node: NodeRecord): Promise<string | null | undefined> {
  return (await biosSettings.list(fx.tmp.db, node.id)).find((s) => s.name === 'marker')?.value;
}

test('a step for child nodes runs on every child, not on the parent, and the cleaning goes on', async () => {
  const { parent, children } = await family();
  const n = await cleanNext(parent, marker('all'));
  assert.equal(n.provision_state, 'manageable');
  assert.equal(n.last_error, null);
  assert.equal(await markerOf(parent), undefined);
  for (const child of children) assert.equal(await markerOf(child), 'all');
  for (const child of children) assert.equal((await nodes.find(fx.tmp.db, child.uuid)).reservation, null, 'child lock released');
});

test('limit_child_node_execution picks the children it names', async () => {
  const { parent, children } = await family();
  await cleanNext(parent, marker('one', { limit_child_node_execution: [children[1].uuid] }));
  assert.equal(await markerOf(children[0]), undefined);
  assert.equal(await markerOf(children[1]), 'one');
});

test('a child locked by another conductor fails the parent\'s step with NodeLocked', async () => {
  const { parent, children } = await family();
  await fx.tmp.db.knex('nodes').where({ uuid: children[0].uuid }).update({ reservation: 'elsewhere' });
  const n = await cleanNext(parent, marker('locked'));
  assert.equal(n.provision_state, 'clean failed');
  assert.match(n.last_error ?? '', new RegExp(`^Node ${parent.uuid} failed step .*: Node ${children[0].uuid} is locked by ` +
    'host elsewhere, please retry after the current operation is completed.$'));
  assert.equal(await markerOf(children[1]), undefined, 'the loop stopped at the locked child');
});

test('a reserved hold meant for a child fails the parent\'s step: the child is in no flow to hold', async () => {
  const { parent, children } = await family();
  const step = { interface: 'deploy', step: 'hold', args: {}, priority: 0, execute_on_child_nodes: true };
  // The reserved `hold` moves the child itself, which is in no flow: the state machine refuses it.
  const n = await cleanNext(parent, step);
  assert.equal(n.provision_state, 'clean failed');
  assert.match(n.last_error ?? '', /^Node .* failed step /);
  assert.equal((await nodes.find(fx.tmp.db, children[0].uuid)).provision_state, 'enroll');
});
