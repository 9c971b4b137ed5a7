import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startConductorService, ConductorService } from '../../src/conductor/service';
import { ParentNodeLocked } from '../../src/common/errors';
import * as nodeRepo from '../../src/db/repositories/nodes';
import { makeConf, sqliteDb, TempDb } from './support';

let tmp: TempDb;
let svc: ConductorService;

before(async () => {
  tmp = await sqliteDb();
  svc = await startConductorService({ conf: makeConf('family-host'), db: tmp.db });
});

after(async () => {
  await svc.stop();
  await tmp.cleanup();
});

async function family(prefix: string) {
  const parent = await svc.api.createNode({ name: `${prefix}-parent`, driver: 'fake-hardware', power_state: 'power off' });
  const child = await svc.api.createNode({
    name: `${prefix}-child`, driver: 'fake-hardware', power_state: 'power off', parent_node: parent.uuid,
  });
  const own = await svc.api.createNode({
    name: `${prefix}-own-supply`, driver: 'fake-hardware', power_state: 'power on', parent_node: parent.uuid,
    driver_info: { has_dedicated_power_supply: true },
  });
  return { parent, child, own };
}

const powerOf = async (uuid: string) => (await nodeRepo.find(tmp.db, uuid)).power_state;
const act = (uuid: string, state: string) =>
  svc.manager.tasks.run(uuid, { purpose: 'test' }, (task) => task.powerAction(state));

test('powering a child on powers its parent on first; one with its own supply leaves the parent alone', async () => {
  const { parent, child, own } = await family('on');
  await act(own.uuid, 'power on');
  assert.equal(await powerOf(parent.uuid), 'power off');
  await act(child.uuid, 'power on');
  assert.equal(await powerOf(child.uuid), 'power on');
  assert.equal(await powerOf(parent.uuid), 'power on');
});

test('powering a parent off powers off the children that depend on it, not those with their own supply', async () => {
  const { parent, child, own } = await family('off');
  await act(child.uuid, 'power on');
  await act(parent.uuid, 'power off');
  assert.equal(await powerOf(parent.uuid), 'power off');
  assert.equal(await powerOf(child.uuid), 'power off');
  assert.equal(await powerOf(own.uuid), 'power on');
  // A reboot does neither.
  await act(child.uuid, 'power on');
  await act(parent.uuid, 'rebooting');
  assert.equal(await powerOf(child.uuid), 'power on');
});

test('a locked parent fails the child\'s power on with ParentNodeLocked, recorded on the child', async () => {
  const { parent, child } = await family('locked');
  const held = await svc.manager.tasks.acquire(parent.uuid, { purpose: 'holding the parent' });
  try {
    await assert.rejects(
      svc.manager.tasks.run(child.uuid, { purpose: 'test' }, (task) => task.powerAction('power on')),
      (err: unknown) => err instanceof ParentNodeLocked && err.message === `Node ${child.uuid} parent_node ${parent.uuid} is ` +
        'presently locked and we are unable to perform any action on it at this time. Please retry after the current ' +
        'operation is completed.',
    );
  } finally {
    await svc.manager.tasks.release(held);
  }
  const n = await nodeRepo.find(tmp.db, child.uuid);
  assert.equal(n.power_state, 'power off');
  assert.equal(n.target_power_state, null);
  assert.equal((await nodeRepo.find(tmp.db, parent.uuid)).reservation, null);
});
