import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startConductorService, ConductorService } from '../../src/conductor/service';
import { InvalidState, InvalidStateRequested, NodeAssociated, NodeLocked, NoFreeConductorWorker } from '../../src/common/errors';
import * as nodeRepo from '../../src/db/repositories/nodes';
import { makeConf, sqliteDb, stable, TempDb, waitForNode } from './support';

let tmp: TempDb;
let svc: ConductorService;

before(async () => {
  tmp = await sqliteDb();
  svc = await startConductorService({ conf: makeConf('flow-host', { conductor: { automated_clean: true } }), db: tmp.db });
});

after(async () => {
  await svc.stop();
  await tmp.cleanup();
});

async function newNode(name: string) {
  return svc.api.createNode({ name, driver: 'fake-hardware' });
}

test('create fills interface defaults from the hardware type', async () => {
  const node = await newNode('defaults');
  assert.equal(node.provision_state, 'enroll');
  assert.equal(node.power_interface, 'fake');
  assert.equal(node.deploy_interface, 'fake');
  assert.equal(node.network_interface, 'flat');
  assert.equal(node.storage_interface, 'noop'); // [DEFAULT]default_storage_interface
  assert.equal(node.firmware_interface, 'no-firmware');
});

test('enroll -> manageable -> inspect -> provide -> deploy -> rescue -> unrescue -> undeploy', async () => {
  const { db } = tmp;
  const node = await newNode('lifecycle');
  await svc.api.doProvisioningAction(node.uuid, 'manage');
  let n = await waitForNode(db, node.uuid, stable('manageable'));
  assert.equal(n.last_error, null);
  assert.ok(n.provision_updated_at instanceof Date);

  await svc.api.inspectHardware(node.uuid);
  n = await waitForNode(db, node.uuid, stable('manageable'));
  assert.ok(n.inspection_finished_at instanceof Date);
  assert.equal(n.inspection_started_at, null);

  await svc.api.doProvisioningAction(node.uuid, 'provide');
  n = await waitForNode(db, node.uuid, stable('available'));

  await svc.api.changeNodePowerState(node.uuid, 'power on');
  n = await waitForNode(db, node.uuid, (x) => x.power_state === 'power on' && x.target_power_state === null);

  await svc.api.doNodeDeploy(node.uuid, { rebuild: false, configdrive: { meta_data: { hostname: 'x' } }, extraData: { a: 1 } });
  const right = await nodeRepo.find(db, node.uuid);
  assert.ok(['deploying', 'active'].includes(right.provision_state ?? ''));
  n = await waitForNode(db, node.uuid, stable('active'));
  assert.deepEqual(n.instance_info?.configdrive, { meta_data: { hostname: 'x' } });
  assert.deepEqual(n.deploy_step, {}); // None is stored as {} (JsonEncodedDict)

  await assert.rejects(svc.api.doProvisioningAction(node.uuid, 'provide'), InvalidStateRequested);

  await svc.api.doNodeRescue(node.uuid, 'secret');
  n = await waitForNode(db, node.uuid, stable('rescue'));
  assert.equal(n.instance_info?.rescue_password, 'secret');
  await svc.api.doNodeUnrescue(node.uuid);
  n = await waitForNode(db, node.uuid, stable('active'));
  assert.equal(n.instance_info?.rescue_password, 'secret'); // kept, as the reference Ironic does

  await svc.api.doNodeTearDown(node.uuid);
  n = await waitForNode(db, node.uuid, stable('available'));
  assert.deepEqual(n.instance_info, {});
  const history = await db.knex('node_history').where({ node_id: node.id });
  assert.equal(history.length, 0);
});

test('manual clean validates steps against the driver with Ironic messages', async () => {
  const node = await newNode('manual-clean');
  await svc.api.doProvisioningAction(node.uuid, 'manage');
  await waitForNode(tmp.db, node.uuid, stable('manageable'));
  await svc.api.doNodeClean(node.uuid, [{ interface: 'bios', step: 'nope' }]);
  // Ironic validates the steps in the worker, so a bad step fails the cleaning.
  let n = await waitForNode(tmp.db, node.uuid, (x) => x.provision_state === 'clean failed');
  assert.equal(n.target_provision_state, 'manageable');
  assert.equal(n.last_error, `Cannot clean node ${node.uuid}: node does not support this clean step: ` +
    "{'interface': 'bios', 'step': 'nope'}");
  await svc.api.doProvisioningAction(node.uuid, 'manage');
  await waitForNode(tmp.db, node.uuid, stable('manageable'));
  await svc.api.doNodeClean(node.uuid, [{ interface: 'bios', step: 'apply_configuration', args: { settings: [] } }]);
  n = await waitForNode(tmp.db, node.uuid, stable('manageable'));
  assert.equal(n.last_error, null);
});

test('manage from enroll verifies power and records the read power state', async () => {
  const node = await svc.api.createNode({ name: 'verify-fail', driver: 'fake-hardware', power_interface: 'fake' });
  await svc.api.doProvisioningAction(node.uuid, 'manage');
  const n = await waitForNode(tmp.db, node.uuid, stable('manageable'));
  assert.equal(n.power_state, null);
});

test('destroy refuses associated nodes and disallowed states', async () => {
  const node = await newNode('destroy-me');
  await svc.api.updateNode(node.uuid, { instance_uuid: '6a5b1c74-5f0e-4a7b-9a43-8f7c4f0f8f11' });
  await assert.rejects(svc.api.destroyNode(node.uuid), NodeAssociated);
  await svc.api.updateNode(node.uuid, { instance_uuid: null });
  await svc.api.doProvisioningAction(node.uuid, 'manage');
  await waitForNode(tmp.db, node.uuid, stable('manageable'));
  await svc.api.inspectHardware(node.uuid);
  await waitForNode(tmp.db, node.uuid, stable('manageable'));
  await tmp.db.knex('nodes').where({ uuid: node.uuid }).update({ provision_state: 'active' });
  await assert.rejects(svc.api.destroyNode(node.uuid), (err: Error) => {
    assert.ok(err instanceof InvalidState);
    assert.equal(err.message, `Can not delete node "${node.uuid}" while it is in provision state "active". Valid ` +
      `provision states to perform deletion are: "('manageable', 'enroll', 'adopt failed', 'available')", or set ` +
      'the node into maintenance mode');
    return true;
  });
  await svc.api.updateNode(node.uuid, { maintenance: true, maintenance_reason: 'x' });
  await svc.api.destroyNode(node.uuid);
  await assert.rejects(nodeRepo.find(tmp.db, node.uuid));
});

test('a held lock answers NodeLocked with the holder', async () => {
  const node = await newNode('locked');
  await nodeRepo.reserve(tmp.db, node.id, 'other-host');
  await assert.rejects(svc.api.changeNodePowerState(node.uuid, 'power on'), (err: Error) => {
    assert.ok(err instanceof NodeLocked);
    assert.equal(err.message, `Node ${node.uuid} is locked by host other-host, please retry after the current operation is completed.`);
    return true;
  });
  await nodeRepo.release(tmp.db, node.id, 'other-host');
});

test('a full worker pool answers NoFreeConductorWorker and restores the states', async () => {
  const node = await newNode('busy');
  await svc.api.doProvisioningAction(node.uuid, 'manage');
  await waitForNode(tmp.db, node.uuid, stable('manageable'));
  const pool = svc.manager.ctx.pool;
  const release: Array<() => void> = [];
  while (pool.free > 0) pool.submit(() => new Promise<void>((r) => release.push(r)));
  try {
    await assert.rejects(svc.api.doProvisioningAction(node.uuid, 'provide'), NoFreeConductorWorker);
    const n = await nodeRepo.find(tmp.db, node.uuid);
    assert.equal(n.provision_state, 'manageable');
    assert.equal(n.target_provision_state, null);
    assert.equal(n.last_error, 'No free conductor workers available');
    assert.equal(n.reservation, null);
  } finally {
    release.forEach((r) => r());
  }
});

test('soft power off and unsupported states', async () => {
  const node = await newNode('power');
  await svc.api.changeNodePowerState(node.uuid, 'power on');
  await waitForNode(tmp.db, node.uuid, (x) => x.power_state === 'power on');
  await svc.api.changeNodePowerState(node.uuid, 'soft power off', 5);
  const n = await waitForNode(tmp.db, node.uuid, (x) => x.power_state === 'power off' && x.target_power_state === null);
  assert.equal(n.last_error, null);
  await assert.rejects(svc.api.changeNodePowerState(node.uuid, 'bogus'), {
    message: 'The driver fake-hardware does not support the power state, bogus',
  });
});
