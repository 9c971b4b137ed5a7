/**
 * A task's save goes through the node repository's one write, which adds Ironic's provision stamps
 * (_do_update_node): the task's node and the row agree on them afterwards.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { nodePowerAction } from '../../src/conductor/power';
import { TaskManager } from '../../src/conductor/task-manager';
import { WorkerPool } from '../../src/conductor/worker-pool';
import type { ConductorContext } from '../../src/conductor/context';
import { DriverFactory } from '../../src/drivers/driver-factory';
import * as nodes from '../../src/db/repositories/nodes';
import { makeConf, sqliteDb, TempDb } from './support';

const cleanups: TempDb[] = [];
after(async () => {
  for (const c of cleanups) await c.cleanup();
});

async function setup(): Promise<{ t: TempDb; tasks: TaskManager }> {
  const t = await sqliteDb();
  cleanups.push(t);
  const conf = makeConf('saver');
  const ctx: ConductorContext = { host: 'saver', conf, db: t.db, driverFactory: new DriverFactory(conf), pool: new WorkerPool(2), conductorId: null };
  return { t, tasks: new TaskManager(ctx, nodePowerAction) };
}

const started = new Date('2026-01-01T00:00:00Z');

test('inspection failing clears inspection_started_at, on the row and the task\'s node', async () => {
  const { t, tasks } = await setup();
  const node = await nodes.create(t.db, { driver: 'fake-hardware', provision_state: 'inspecting', inspection_started_at: started });
  const task = await tasks.acquire(node.uuid, { purpose: 'test' });
  await task.processEvent('fail');
  await tasks.release(task);
  const row = await nodes.find(t.db, node.uuid);
  assert.equal(row.provision_state, 'inspect failed');
  assert.equal(row.inspection_started_at, null);
  assert.equal(task.node.inspection_started_at, null);
  assert.ok(row.provision_updated_at instanceof Date);
  assert.equal(task.node.provision_updated_at?.getTime(), row.provision_updated_at.getTime());
});

test('inspection done stamps inspection_finished_at; other saves leave the stamps alone', async () => {
  const { t, tasks } = await setup();
  const node = await nodes.create(t.db, { driver: 'fake-hardware', provision_state: 'inspect wait', inspection_started_at: started });
  const task = await tasks.acquire(node.uuid, { purpose: 'test' });
  await task.processEvent('done');
  const done = await nodes.find(t.db, node.uuid);
  assert.equal(done.inspection_started_at, null);
  assert.ok(done.inspection_finished_at instanceof Date);
  assert.equal(task.node.inspection_finished_at?.getTime(), done.inspection_finished_at.getTime());
  task.node.extra = { saved: true };
  await task.saveNode();
  await tasks.release(task);
  const later = await nodes.find(t.db, node.uuid);
  assert.deepEqual(later.extra, { saved: true });
  assert.equal(later.provision_updated_at?.getTime(), done.provision_updated_at?.getTime());
});
