/**
 * Servicing (do_node_service) through the conductor's RPC entry point on fake-hardware, whose
 * vendor interface has the service steps log_passthrough (out-of-band) and trigger_servicewait, and
 * the reserved steps (power_*, hold, wait) as the step runner handles them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidStateRequested, NodeInMaintenance, StepNotAllowed } from '../../src/common/errors';
import type { NodeRecord } from '../../src/db/models';
import * as nodes from '../../src/db/repositories/nodes';
import { conductorFixture, waitForNode } from './support';

const fx = conductorFixture('servicing-host');

let counter = 0;

async function activeNode(fields: Partial<NodeRecord> = {}): Promise<NodeRecord> {
  const node = await fx.svc.api.createNode({ name: `svc-${++counter}`, driver: 'fake-hardware' });
  await nodes.updateFields(fx.tmp.db, node, { provision_state: 'active', power_state: 'power on', ...fields });
  return nodes.find(fx.tmp.db, node.uuid);
}

const settledIn = (state: string) => (n: NodeRecord) => n.provision_state === state && n.reservation === null;

test('servicing runs the steps and returns the node to active, the step list wiped', async () => {
  const node = await activeNode();
  await fx.svc.api.doNodeService(node.uuid, [{ interface: 'vendor', step: 'log_passthrough' }]);
  const n = await waitForNode(fx.tmp.db, node.uuid, (x) => settledIn('active')(x) && x.target_provision_state === null);
  assert.equal(n.last_error, null);
  assert.deepEqual(n.service_step, {});
  assert.deepEqual(n.driver_internal_info, { service_steps: null });
});

test('an asynchronous step leaves the node in service wait on that step', async () => {
  const node = await activeNode();
  await fx.svc.api.doNodeService(node.uuid, [{ interface: 'vendor', step: 'trigger_servicewait' },
    { interface: 'vendor', step: 'log_passthrough' }]);
  const n = await waitForNode(fx.tmp.db, node.uuid, settledIn('service wait'));
  assert.equal(n.target_provision_state, 'active');
  assert.deepEqual(n.service_step, { interface: 'vendor', step: 'trigger_servicewait', abortable: false, priority: 0 });
  assert.equal(n.driver_internal_info?.service_step_index, 0);
  assert.equal(n.driver_internal_info?.service_disable_ramdisk, null);
});

test('invalid steps fail the servicing with Ironic\'s message, no maintenance', async () => {
  const node = await activeNode();
  await fx.svc.api.doNodeService(node.uuid, [{ interface: 'vendor', step: 'log_passthrough', args: { a: 1 } }]);
  const n = await waitForNode(fx.tmp.db, node.uuid, settledIn('service failed'));
  assert.equal(n.last_error, `Cannot service node ${node.uuid}: service step {'interface': 'vendor', 'step': ` +
    "'log_passthrough', 'args': {'a': 1}} has these unexpected arguments: a");
  assert.equal(n.maintenance, false);
  assert.equal(n.target_provision_state, 'active');
});

test('reserved steps are left out of the validated list, so they never run', async () => {
  const node = await activeNode();
  await fx.svc.api.doNodeService(node.uuid, [{ interface: 'deploy', step: 'hold' }, { interface: 'power', step: 'power_off' },
    { interface: 'vendor', step: 'log_passthrough' }]);
  const n = await waitForNode(fx.tmp.db, node.uuid, (x) => settledIn('active')(x) && x.target_provision_state === null);
  assert.equal(n.power_state, 'power on');
});

test('the step runner handles reserved steps: power steps run, hold pauses in service hold', async () => {
  const steps = [{ interface: 'deploy', step: 'hold', priority: 0, args: {} },
    { interface: 'power', step: 'power_off', priority: 0, args: {} }, { interface: 'deploy', step: 'hold', priority: 0, args: {} }];
  const node = await activeNode({ provision_state: 'service hold', target_provision_state: 'active', service_step: steps[0],
    driver_internal_info: { service_steps: steps, service_step_index: 0 } });
  await fx.svc.api.doProvisioningAction(node.uuid, 'unhold');
  const n = await waitForNode(fx.tmp.db, node.uuid, (x) => settledIn('service hold')(x) && x.driver_internal_info?.service_step_index === 2);
  assert.equal(n.power_state, 'power off');
  assert.deepEqual(n.service_step, steps[2]);
});

test('service is refused in maintenance and outside active or service failed/hold', async () => {
  const held = await activeNode({ maintenance: true });
  await assert.rejects(fx.svc.api.doNodeService(held.uuid, [{ interface: 'vendor', step: 'log_passthrough' }]),
    (e: Error) => e instanceof NodeInMaintenance && e.message === `The service operation can't be performed on node ${held.uuid} ` +
      "because it's in maintenance mode.");
  const node = await activeNode({ provision_state: 'available' });
  await assert.rejects(fx.svc.api.doNodeService(node.uuid, [{ interface: 'vendor', step: 'log_passthrough' }]),
    (e: Error) => e instanceof InvalidStateRequested && e.message === `The requested action "service" can not be performed ` +
      `on node "${node.uuid}" while it is in state "available".`);
});

test('a step the operator disallows is refused before the node moves', async () => {
  const node = await activeNode();
  await assert.rejects(fx.svc.api.doNodeService(node.uuid, [{ interface: 'vendor', step: 'send_raw' }]),
    (e: Error) => e instanceof StepNotAllowed
      && e.message === "service step 'vendor.send_raw' is not allowed. Disallowed by operator configuration [api]disallow_service_steps.");
  assert.equal((await nodes.find(fx.tmp.db, node.uuid)).provision_state, 'active');
});
