import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startConductorService, ConductorService } from '../../src/conductor/service';
import { PowerStateFailure } from '../../src/common/errors';
import * as nodeRepo from '../../src/db/repositories/nodes';
import { tearDownInbandCleaning } from '../../src/drivers/agent/inband-cleaning';
import { tearDownAgent } from '../../src/drivers/agent/deploy-steps';
import type { AgentClient } from '../../src/drivers/agent/client';
import { registerInterface } from '../../src/drivers/catalog';
import { createFakePower } from '../../src/drivers/power/fake';
import type { PowerInterface } from '../../src/drivers/base';
import { ALL_FAKE, makeConf, sqliteDb, TempDb } from './support';

/** A BMC that always reports the machine on, whatever the database says. */
registerInterface('power', 'always-on', (): PowerInterface => ({
  ...createFakePower(), name: 'always-on', className: 'AlwaysOnPower',
  async getPowerState() { return 'power on'; },
}));

let tmp: TempDb;
let svc: ConductorService;

before(async () => {
  tmp = await sqliteDb();
  svc = await startConductorService({
    conf: makeConf('dpo-host', {
      DEFAULT: { enabled_power_interfaces: [...ALL_FAKE.enabled_power_interfaces, 'always-on'] },
      conductor: { force_power_state_during_sync: true },
    }), db: tmp.db,
  });
});

after(async () => {
  await svc.stop();
  await tmp.cleanup();
});

async function nodeThatStaysOn(name: string) {
  const node = await svc.api.createNode({
    name, driver: 'fake-hardware', power_interface: 'always-on', disable_power_off: true, power_state: 'power on',
  });
  await tmp.db.knex('nodes').where({ uuid: node.uuid }).update({ provision_state: 'manageable' });
  return node;
}

test('node_power_action refuses powering off a disable_power_off node, before touching it; reboots still run', async () => {
  const node = await nodeThatStaysOn('stays-on');
  const actions: string[] = [];
  for (const target of ['power off', 'soft power off']) {
    await assert.rejects(svc.manager.tasks.run(node.uuid, { purpose: 'test' }, (task) => task.powerAction(target)),
      (err: unknown) => err instanceof PowerStateFailure && err.message === `Failed to set node power state to ${target}.`);
    const n = await nodeRepo.find(tmp.db, node.uuid);
    assert.equal(n.power_state, 'power on');
    assert.equal(n.target_power_state, null);
    actions.push(target);
  }
  assert.deepEqual(actions, ['power off', 'soft power off']);
  await svc.manager.tasks.run(node.uuid, { purpose: 'test' }, (task) => task.powerAction('rebooting'));
  assert.equal((await nodeRepo.find(tmp.db, node.uuid)).power_state, 'power on');
});

test('power sync does not force a disable_power_off node back to its recorded state', async () => {
  const node = await nodeThatStaysOn('sync');
  // The database says off (as after an outside change); the fake BMC says on.
  await tmp.db.knex('nodes').where({ uuid: node.uuid }).update({ power_state: 'power off' });
  await svc.powerSync.syncPowerStates();
  const n = await nodeRepo.find(tmp.db, node.uuid);
  assert.equal(n.power_state, 'power on', 'the recorded state follows the hardware instead');
});

test('in-band cleaning ends with a reboot instead of a power off', async () => {
  const node = await nodeThatStaysOn('cleaned');
  const states: string[] = [];
  await svc.manager.tasks.run(node.uuid, { purpose: 'test' }, async (task) => {
    const original = task.powerAction.bind(task);
    task.powerAction = async (state: string, timeout?: number) => { states.push(state); await original(state, timeout); };
    await tearDownInbandCleaning(task, false);
  });
  assert.deepEqual(states, ['rebooting']);
});

test('tear_down_agent locks the agent down instead of powering the node off', async () => {
  const node = await nodeThatStaysOn('deployed');
  const calls: string[] = [];
  const client = {
    async lockdown() { calls.push('lockdown'); },
    async powerOff() { calls.push('power_off'); return {}; },
    async sync() { calls.push('sync'); return {}; },
  } as unknown as AgentClient;
  await svc.manager.tasks.run(node.uuid, { purpose: 'test' }, async (task) => {
    task.powerAction = async (state: string) => { calls.push(state); };
    await tearDownAgent(task, client);
  });
  assert.deepEqual(calls, ['lockdown']);
});

/** A node whose agent heartbeated a moment ago, with fast track on for it. */
async function fastTrackedNode(name: string, disablePowerOff: boolean) {
  const node = await svc.api.createNode({
    name, driver: 'fake-hardware', power_interface: 'always-on', disable_power_off: disablePowerOff, power_state: 'power on',
    driver_info: { fast_track: true },
  });
  const heartbeat = new Date().toISOString().replace('Z', '000');
  await tmp.db.knex('nodes').where({ uuid: node.uuid }).update({
    provision_state: 'manageable',
    driver_internal_info: JSON.stringify({ agent_url: 'http://127.0.0.1:9999', agent_last_heartbeat: heartbeat }),
  });
  return node;
}

test('fast track: in-band cleaning of a node whose agent is alive ends without any power action', async () => {
  for (const [name, dpo] of [['fast-1', false], ['fast-2', true]] as const) {
    const node = await fastTrackedNode(name, dpo);
    const states: string[] = [];
    await svc.manager.tasks.run(node.uuid, { purpose: 'test' }, async (task) => {
      task.powerAction = async (state: string) => { states.push(state); };
      await tearDownInbandCleaning(task, false);
    });
    assert.deepEqual(states, [], name);
  }
});

test('fast track needs a recent heartbeat: an agent silent past [deploy]fast_track_timeout gets the usual power off', async () => {
  const node = await fastTrackedNode('stale', false);
  await tmp.db.knex('nodes').where({ uuid: node.uuid }).update({
    driver_internal_info: JSON.stringify({ agent_url: 'http://127.0.0.1:9999', agent_last_heartbeat: '2020-01-01T00:00:00.000000' }),
  });
  const states: string[] = [];
  await svc.manager.tasks.run(node.uuid, { purpose: 'test' }, async (task) => {
    task.powerAction = async (state: string) => { states.push(state); };
    await tearDownInbandCleaning(task, false);
  });
  assert.deepEqual(states, ['power off']);
});
