/**
 * abort and unhold from every state they apply to, through the conductor's RPC entry point.
 * The wait and hold states are seeded in the database (fake interfaces finish synchronously).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidState, UnsupportedDriverExtension } from '../../src/common/errors';
import type { NodeRecord } from '../../src/db/models';
import * as nodes from '../../src/db/repositories/nodes';
import { conductorFixture, waitForNode } from './support';

const fx = conductorFixture('abort-host');

let counter = 0;

/** A fresh node put straight into `fields` (provision state and whatever else the case needs). */
async function seeded(fields: Partial<NodeRecord>): Promise<NodeRecord> {
  const node = await fx.svc.api.createNode({ name: `abort-${++counter}`, driver: 'fake-hardware', rescue_interface: 'fake' });
  await nodes.updateFields(fx.tmp.db, node, { power_state: 'power on', ...fields });
  return nodes.find(fx.tmp.db, node.uuid);
}

const settledIn = (state: string) => (n: NodeRecord) => n.provision_state === state;

test('abort in deploy wait cleans up and fails the deployment, naming the step', async () => {
  const node = await seeded({ provision_state: 'wait call-back', target_provision_state: 'active',
    deploy_step: { interface: 'deploy', step: 'write_image', abortable: true, priority: 80, args: {} },
    driver_internal_info: { agent_url: 'http://10.0.0.5:9999', deploy_step_index: 1, deploy_steps: [] } });
  await fx.svc.api.doProvisioningAction(node.uuid, 'abort');
  const n = await waitForNode(fx.tmp.db, node.uuid, settledIn('deploy failed'));
  assert.equal(n.target_provision_state, 'active');
  assert.equal(n.last_error, 'By request, the deploy operation was aborted during or after the completion of step "deploy.write_image"');
  assert.deepEqual(n.deploy_step, {});
  assert.equal(n.driver_internal_info?.agent_url, undefined);
  assert.equal(n.driver_internal_info?.deploy_step_index, undefined);
  assert.equal(n.power_state, 'power on');
});

test('abort in deploy wait during a step that cannot be aborted only flags it', async () => {
  const step = { interface: 'deploy', step: 'write_image', abortable: false, priority: 80, args: {} };
  const node = await seeded({ provision_state: 'wait call-back', target_provision_state: 'active', deploy_step: step });
  await fx.svc.api.doProvisioningAction(node.uuid, 'abort');
  const n = await waitForNode(fx.tmp.db, node.uuid, () => true);
  assert.equal(n.provision_state, 'wait call-back');
  assert.deepEqual(n.deploy_step, { ...step, abort_after: true });
  assert.equal(n.last_error, null);
});

test('abort in deploy hold tears the instance down in deploy failed, whose `clean` fails (as Ironic 2025.1)', async () => {
  const node = await seeded({ provision_state: 'deploy hold', target_provision_state: 'active', instance_info: { image_source: 'x' },
    driver_internal_info: { agent_url: 'http://10.0.0.5:9999' } });
  await fx.svc.api.doProvisioningAction(node.uuid, 'abort');
  const n = await waitForNode(fx.tmp.db, node.uuid, (x) => settledIn('deploy failed')(x) && x.last_error !== null);
  assert.equal(n.last_error, "Async execution of _do_node_tear_down failed with error: Can not transition from state 'deploy failed' " +
    "on event 'clean' (no defined transition)");
  assert.equal(n.target_provision_state, 'active');
  assert.deepEqual(n.instance_info, {});
  assert.equal(n.driver_internal_info?.agent_url, undefined);
});

test('abort in clean hold of a manual clean goes to clean failed, still heading to manageable', async () => {
  const node = await seeded({ provision_state: 'clean hold', target_provision_state: 'manageable',
    clean_step: { interface: 'deploy', step: 'hold', abortable: true, priority: 0, args: {} },
    driver_internal_info: { clean_step_index: 0, clean_steps: [], cleaning_reboot: true } });
  await fx.svc.api.doProvisioningAction(node.uuid, 'abort');
  const n = await waitForNode(fx.tmp.db, node.uuid, settledIn('clean failed'));
  assert.equal(n.target_provision_state, 'manageable');
  assert.equal(n.last_error, 'By request, the clean operation was aborted during or after the completion of step "deploy.hold"');
  assert.deepEqual(n.clean_step, {});
  assert.equal(n.driver_internal_info?.clean_step_index, undefined);
  assert.equal(n.driver_internal_info?.cleaning_reboot, undefined);
  assert.equal(n.driver_internal_info?.clean_steps, null);
});

test('unhold releases deploy hold and clean hold back to their wait states', async () => {
  for (const [hold, wait, target] of [['deploy hold', 'wait call-back', 'active'], ['clean hold', 'clean wait', 'available']]) {
    const node = await seeded({ provision_state: hold, target_provision_state: target });
    await fx.svc.api.doProvisioningAction(node.uuid, 'unhold');
    const n = await waitForNode(fx.tmp.db, node.uuid, () => true);
    assert.equal(n.provision_state, wait);
    assert.equal(n.target_provision_state, target);
  }
});

test('unhold in service hold runs the rest in service wait, which cannot reach active (as Ironic 2025.1)', async () => {
  // continue_node_service runs after `unhold` (service hold -> service wait) without `resume`:
  // the final `done` has no transition from service wait, and fail_on_error fails the servicing.
  const node = await seeded({ provision_state: 'service hold', target_provision_state: 'active',
    service_step: { interface: 'deploy', step: 'hold', priority: 0, args: {} },
    driver_internal_info: { service_steps: [{ interface: 'deploy', step: 'hold', priority: 0, args: {} }], service_step_index: 0 } });
  await fx.svc.api.doProvisioningAction(node.uuid, 'unhold');
  const n = await waitForNode(fx.tmp.db, node.uuid, settledIn('service failed'));
  assert.equal(n.target_provision_state, 'active');
  assert.equal(n.last_error, 'Unexpected error when processing next service step. InvalidState: Can not transition from ' +
    "state 'service wait' on event 'done' (no defined transition)");
  assert.equal(n.maintenance, false);
});

test('abort in service wait and service hold only fails the servicing, keeping its step', async () => {
  for (const state of ['service wait', 'service hold']) {
    const step = { interface: 'raid', step: 'apply_configuration', abortable: true, priority: 0, args: {} };
    const node = await seeded({ provision_state: state, target_provision_state: 'active', service_step: step });
    await fx.svc.api.doProvisioningAction(node.uuid, 'abort');
    const n = await waitForNode(fx.tmp.db, node.uuid, settledIn('service failed'));
    assert.equal(n.target_provision_state, 'active');
    assert.equal(n.last_error, null);
    assert.deepEqual(n.service_step, step);
  }
});

test('abort in service failed is refused in maintenance and returns to active otherwise', async () => {
  const node = await seeded({ provision_state: 'service failed', target_provision_state: 'active', maintenance: true });
  await assert.rejects(fx.svc.api.doProvisioningAction(node.uuid, 'abort'), (err: Error) => err instanceof InvalidState
    && err.message === `Can not abort service on node "${node.uuid}" while it is in maintenance mode. Please remove the ` +
      'node from maintenance prior to issuing the request to abort the service operation.');
  assert.equal((await nodes.find(fx.tmp.db, node.uuid)).provision_state, 'service failed');
  await nodes.updateFields(fx.tmp.db, node, { maintenance: false });
  await fx.svc.api.doProvisioningAction(node.uuid, 'abort');
  const n = await waitForNode(fx.tmp.db, node.uuid, settledIn('active'));
  assert.equal(n.last_error, 'By request, the service operation was aborted');
});

test('abort in rescue wait drops the password, clears last_error and leaves the power alone', async () => {
  const node = await seeded({ provision_state: 'rescue wait', target_provision_state: 'rescue', last_error: 'earlier',
    instance_info: { rescue_password: 'pw', hashed_rescue_password: 'x', image_source: 'http://i' } });
  await fx.svc.api.doProvisioningAction(node.uuid, 'abort');
  const n = await waitForNode(fx.tmp.db, node.uuid, settledIn('rescue failed'));
  assert.equal(n.target_provision_state, 'rescue');
  // The abort event starts a worker, which resets last_error; the abort itself is no error.
  assert.equal(n.last_error, null);
  assert.equal(n.power_state, 'power on');
  assert.deepEqual(n.instance_info, { image_source: 'http://i' });
});

test('abort in inspect wait needs an inspect interface that can abort', async () => {
  const node = await seeded({ provision_state: 'inspect wait', target_provision_state: 'manageable' });
  await assert.rejects(fx.svc.api.doProvisioningAction(node.uuid, 'abort'), (err: Error) => err instanceof UnsupportedDriverExtension
    && err.message === 'Driver fake-hardware does not support abort (disabled or not implemented).');
  const n = await waitForNode(fx.tmp.db, node.uuid, () => true);
  assert.equal(n.provision_state, 'inspect wait');
  assert.equal(n.last_error, null);
});
