import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { nodePowerAction } from '../../src/conductor/power';
import { TaskManager } from '../../src/conductor/task-manager';
import { WorkerPool } from '../../src/conductor/worker-pool';
import type { ConductorContext } from '../../src/conductor/context';
import { DriverFactory } from '../../src/drivers/driver-factory';
import { NodeLocked } from '../../src/common/errors';
import type { Database } from '../../src/db/connection';
import * as nodes from '../../src/db/repositories/nodes';
import { makeConf, mariaDb, sqliteDb, TempDb } from './support';

const cleanups: TempDb[] = [];
after(async () => {
  for (const c of cleanups) await c.cleanup();
});

function manager(db: Database, host: string): TaskManager {
  const conf = makeConf(host, { conductor: { node_locked_retry_attempts: 1 } });
  const ctx: ConductorContext = { host, conf, db, driverFactory: new DriverFactory(conf), pool: new WorkerPool(4), conductorId: null };
  return new TaskManager(ctx, nodePowerAction);
}

async function lockRace(db: Database): Promise<void> {
  const node = await nodes.create(db, { uuid: '0c5e0b1c-9a1e-4d5f-8a39-c0b8a2f0e001', driver: 'fake-hardware', provision_state: 'enroll' });
  const managers = Array.from({ length: 6 }, (_, i) => manager(db, `racer-${i}`));
  for (let round = 0; round < 5; round++) {
    const results = await Promise.allSettled(managers.map((m) => m.acquire(node.uuid, { purpose: 'race' })));
    const winners = results.filter((r) => r.status === 'fulfilled');
    assert.equal(winners.length, 1, `round ${round}: exactly one holder`);
    for (const r of results) if (r.status === 'rejected') assert.ok(r.reason instanceof NodeLocked);
    const winner = results.findIndex((r) => r.status === 'fulfilled');
    const task = (results[winner] as PromiseFulfilledResult<Awaited<ReturnType<TaskManager['acquire']>>>).value;
    assert.equal((await nodes.find(db, node.uuid)).reservation, `racer-${winner}`);
    await managers[winner].release(task);
    assert.equal((await nodes.find(db, node.uuid)).reservation, null);
  }
}

test('exclusive locks race on SQLite: one winner per round', async () => {
  const t = await sqliteDb();
  cleanups.push(t);
  await lockRace(t.db);
});

test('exclusive locks race on MariaDB: one winner per round', async (ctx) => {
  let t: TempDb;
  try {
    t = await mariaDb('conductor_lock_race');
  } catch (err) {
    ctx.skip(`MariaDB unavailable: ${(err as Error).message}`);
    return;
  }
  cleanups.push(t);
  await lockRace(t.db);
});

test('run(): spawned work starts after the call returns, keeps the lock, and releases it even on error', async () => {
  const t = await sqliteDb();
  cleanups.push(t);
  const m = manager(t.db, 'spawner');
  const node = await nodes.create(t.db, { uuid: '0c5e0b1c-9a1e-4d5f-8a39-c0b8a2f0e002', driver: 'fake-hardware', provision_state: 'enroll' });
  let started = false;
  let finish!: () => void;
  const gate = new Promise<void>((r) => { finish = r; });
  await m.run(node.uuid, { purpose: 'spawn test' }, async (task) => {
    task.spawnAfter(async () => {
      started = true;
      await gate;
      throw new Error('boom');
    });
  });
  assert.equal((await nodes.find(t.db, node.uuid)).reservation, 'spawner', 'lock held while the work runs');
  await new Promise((r) => setImmediate(r));
  assert.equal(started, true);
  await assert.rejects(manager(t.db, 'other').acquire(node.uuid), NodeLocked);
  finish();
  const end = Date.now() + 2000;
  while ((await nodes.find(t.db, node.uuid)).reservation !== null && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
  assert.equal((await nodes.find(t.db, node.uuid)).reservation, null, 'released after the failing work');
});
