import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startConductorService, ConductorService } from '../../src/conductor/service';
import { registerInterface } from '../../src/drivers/catalog';
import { createFakePower } from '../../src/drivers/power/fake';
import type { PowerInterface } from '../../src/drivers/base';
import * as nodeRepo from '../../src/db/repositories/nodes';
import { registerConductor } from '../../src/db/repositories/conductor-registry-queries';
import { checkDeployTimeouts } from '../../src/conductor/periodic/timeouts';
import { checkOrphanNodes } from '../../src/conductor/periodic/takeover';
import { ALL_FAKE, makeConf, sqliteDb, TempDb } from './support';

/** A BMC that can be switched off: get_power_state throws while `broken`. */
let broken = false;
registerInterface('power', 'flaky', (): PowerInterface => {
  const base = createFakePower();
  return {
    ...base, name: 'flaky', className: 'FlakyPower',
    async getPowerState(task) {
      if (broken) throw new Error('BMC unreachable');
      return base.getPowerState(task);
    },
  };
});

let tmp: TempDb;
let svc: ConductorService;

before(async () => {
  tmp = await sqliteDb();
  const conf = makeConf('periodic-host', {
    DEFAULT: { enabled_power_interfaces: [...ALL_FAKE.enabled_power_interfaces, 'flaky'] },
    conductor: { power_state_sync_max_retries: 2, deploy_callback_timeout: 1, heartbeat_timeout: 60 },
  });
  svc = await startConductorService({ conf, db: tmp.db });
});

after(async () => {
  await svc.stop();
  await tmp.cleanup();
});

test('power sync skips enroll nodes, nodes with a power action in progress and reserved nodes', async () => {
  const enrolled = await svc.api.createNode({ name: 'enrolled', driver: 'fake-hardware', power_interface: 'flaky', power_state: 'power on' });
  broken = true;
  for (let i = 0; i < 4; i++) await svc.powerSync.syncPowerStates();
  broken = false;
  const n = await nodeRepo.find(tmp.db, enrolled.uuid);
  assert.equal(n.maintenance, false);
  assert.equal(n.power_state, 'power on');
  await tmp.db.knex('nodes').where({ uuid: enrolled.uuid }).delete();
});

test('power sync puts an unreachable node into maintenance with fault "power failure", recovery undoes it', async () => {
  const node = await svc.api.createNode({ name: 'flaky', driver: 'fake-hardware', power_interface: 'flaky', power_state: 'power on' });
  // Power sync leaves enroll nodes alone, as Ironic does; make it an enrolled-and-managed node.
  await tmp.db.knex('nodes').where({ uuid: node.uuid }).update({ provision_state: 'manageable' });
  broken = true;
  for (let i = 0; i < 3; i++) await svc.powerSync.syncPowerStates();
  let n = await nodeRepo.find(tmp.db, node.uuid);
  assert.equal(n.maintenance, true);
  assert.equal(n.fault, 'power failure');
  assert.equal(n.power_state, null);
  assert.equal(n.maintenance_reason, `During sync_power_state, max retries exceeded for node ${node.uuid}, node state None ` +
    "does not match expected state 'power on'. Updating DB state to 'None' Switching node to maintenance mode. Error: BMC unreachable");
  assert.equal(n.last_error, n.maintenance_reason);
  const history = await tmp.db.knex('node_history').where({ node_id: n.id });
  assert.equal(history.length, 1);
  assert.equal(history[0].event_type, 'monitoring');
  assert.equal(history[0].severity, 'ERROR');

  await svc.powerSync.powerFailureRecovery();
  assert.equal((await nodeRepo.find(tmp.db, node.uuid)).maintenance, true, 'still broken: stays in maintenance');
  broken = false;
  // Recovery skips enroll nodes, as Ironic does.
  await tmp.db.knex('nodes').where({ id: n.id }).update({ power_state: 'power off', provision_state: 'manageable' });
  await svc.powerSync.powerFailureRecovery();
  n = await nodeRepo.find(tmp.db, node.uuid);
  assert.equal(n.maintenance, false);
  assert.equal(n.fault, null);
  assert.equal(n.maintenance_reason, null);
});

test('a node waiting for a deploy callback past deploy_callback_timeout fails', async () => {
  const node = await svc.api.createNode({ name: 'deploy-wait', driver: 'fake-hardware' });
  const old = new Date(Date.now() - 120_000);
  await tmp.db.knex('nodes').where({ id: node.id }).update({
    provision_state: 'wait call-back', target_provision_state: 'active',
    provision_updated_at: old.toISOString().replace('T', ' ').replace('Z', ''),
  });
  await checkDeployTimeouts(svc.manager, svc.rings);
  const end = Date.now() + 5000;
  let n = await nodeRepo.find(tmp.db, node.uuid);
  while ((n.provision_state !== 'deploy failed' || n.reservation) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 20));
    n = await nodeRepo.find(tmp.db, node.uuid);
  }
  assert.equal(n.provision_state, 'deploy failed');
  assert.equal(n.target_provision_state, 'active');
  assert.equal(n.last_error, `Timeout reached while waiting for callback for node ${node.uuid}`);
});

test('takeover: a dead conductor\'s reservation is cleared and its deploying node fails', async () => {
  // A second conductor registered long ago, silent since and gone offline: on SQLite, where conductors do
  // not heartbeat (as 29.0.5), only the online flag makes it dead.
  await registerConductor(tmp.db, 'dead-host', '', ['fake-hardware'], []);
  await tmp.db.knex('conductors').where({ hostname: 'dead-host' }).update({ updated_at: '2000-01-01 00:00:00', online: false });
  const node = await svc.api.createNode({ name: 'orphan', driver: 'fake-hardware' });
  await tmp.db.knex('nodes').where({ id: node.id }).update({
    provision_state: 'deploying', target_provision_state: 'active', reservation: 'dead-host',
  });
  await checkOrphanNodes(svc.manager, svc.rings);
  const end = Date.now() + 5000;
  let n = await nodeRepo.find(tmp.db, node.uuid);
  while ((n.provision_state !== 'deploy failed' || n.reservation) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 20));
    n = await nodeRepo.find(tmp.db, node.uuid);
  }
  assert.equal(n.reservation, null);
  assert.equal(n.provision_state, 'deploy failed');
  assert.equal(n.last_error, 'Operation was aborted due to conductor take over');
});

test('start-up fails what this host left in a stuck state; active nodes are taken over', async () => {
  const own = await sqliteDb();
  try {
    const { create: insertNode } = await import('../../src/db/repositories/nodes');
    const stuck = await insertNode(own.db, {
      uuid: '7d1c3f0e-41f2-4c1a-9d0e-3f1e2a3b4c5d', driver: 'fake-hardware', provision_state: 'cleaning',
      target_provision_state: 'available', reservation: 'restart-host',
    });
    const active = await insertNode(own.db, {
      uuid: '7d1c3f0e-41f2-4c1a-9d0e-3f1e2a3b4c5e', driver: 'fake-hardware', provision_state: 'active', conductor_affinity: null,
    });
    const svc2 = await startConductorService({ conf: makeConf('restart-host'), db: own.db });
    try {
      const n = await nodeRepo.find(own.db, stuck.uuid);
      assert.equal(n.reservation, null, 'own stale reservation cleared at start');
      assert.equal(n.provision_state, 'clean failed');
      assert.equal(n.target_provision_state, 'available');
      assert.equal(n.last_error, "The cleaning state can't be resumed by conductor restart-host. Moving to fail state.");
      const { syncLocalState } = await import('../../src/conductor/periodic/takeover');
      await syncLocalState(svc2.manager, svc2.rings);
      const end = Date.now() + 3000;
      let a = await nodeRepo.find(own.db, active.uuid);
      while ((a.conductor_affinity !== svc2.manager.ctx.conductorId || a.reservation) && Date.now() < end) {
        await new Promise((r) => setTimeout(r, 20));
        a = await nodeRepo.find(own.db, active.uuid);
      }
      assert.equal(a.conductor_affinity, svc2.manager.ctx.conductorId);
      assert.equal(a.provision_state, 'active');
    } finally {
      await svc2.stop();
    }
  } finally {
    await own.cleanup();
  }
});

test('node history is trimmed to node_history_max_entries per node, oldest first', async () => {
  const { manageNodeHistory } = await import('../../src/conductor/periodic/history');
  const { insertHistory } = await import('../../src/db/repositories/conductor-history-queries');
  const node = await svc.api.createNode({ name: 'chatty', driver: 'fake-hardware' });
  for (let i = 0; i < 5; i++) {
    await insertHistory(tmp.db, { nodeId: node.id, conductor: 'h', event: `e${i}`, eventType: 'x', severity: 'INFO' });
  }
  const conf = makeConf('periodic-host', { conductor: { node_history_max_entries: 2 } });
  assert.equal(await manageNodeHistory(conf, tmp.db), 3);
  const left = await tmp.db.knex('node_history').where({ node_id: node.id }).orderBy('id');
  assert.deepEqual(left.map((r: { event: string }) => r.event), ['e3', 'e4']);
});
