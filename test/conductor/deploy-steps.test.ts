import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startConductorService, ConductorService } from '../../src/conductor/service';
import { registerInterface } from '../../src/drivers/catalog';
import { createFakeBios } from '../../src/drivers/bios/fake';
import type { BiosInterface, JsonObject } from '../../src/drivers/base';
import { encodeInsert } from '../../src/db/codec';
import { InvalidParameterValue } from '../../src/common/errors';
import { ALL_FAKE, makeConf, sqliteDb, stable, TempDb, waitForNode } from './support';

/** A BIOS interface with deploy steps that records what ran (and can fail on request). */
const ran: Array<{ step: string; args: JsonObject; extra: unknown }> = [];
registerInterface('bios', 'stepper', (): BiosInterface => ({
  ...createFakeBios(), name: 'stepper', className: 'StepperBIOS',
  steps: [
    { step: 'tune', kinds: ['deploy'], priority: 0, argsinfo: { level: { description: 'how much', required: true } } },
    { step: 'explode', kinds: ['deploy'], priority: 0 },
  ],
  async executeStep(task, step, args) {
    ran.push({ step, args, extra: task.extraData });
    if (step === 'explode') throw new InvalidParameterValue('kaboom');
    return null;
  },
}));

let tmp: TempDb;
let svc: ConductorService;

before(async () => {
  tmp = await sqliteDb();
  svc = await startConductorService({
    conf: makeConf('steps-host', { DEFAULT: { enabled_bios_interfaces: [...ALL_FAKE.enabled_bios_interfaces, 'stepper'] } }),
    db: tmp.db,
  });
  const now = new Date();
  const [tid] = await tmp.db.knex('deploy_templates').insert(encodeInsert('deploy_templates',
    { uuid: 'e0f7c5a8-1b2c-4d3e-8f90-a1b2c3d4e5f6', name: 'CUSTOM_TUNED', extra: {}, version: '1.1' }, tmp.db.dialect, now));
  await tmp.db.knex('deploy_template_steps').insert(encodeInsert('deploy_template_steps',
    { deploy_template_id: tid, interface: 'bios', step: 'tune', args: { level: 11 }, priority: 150, version: '1.0' },
    tmp.db.dialect, now));
});

after(async () => {
  await svc.stop();
  await tmp.cleanup();
});

async function availableNode(name: string) {
  const node = await svc.api.createNode({ name, driver: 'fake-hardware', bios_interface: 'stepper' });
  await tmp.db.knex('nodes').where({ id: node.id }).update({ provision_state: 'available' });
  return node;
}

test('deploy templates matching instance_info.traits add their steps, run before the core deploy step', async () => {
  const node = await availableNode('templated');
  // Instance traits must also be node traits (validate_instance_info_traits).
  await svc.api.addNodeTraits(node.uuid, ['CUSTOM_TUNED'], false);
  await svc.api.updateNode(node.uuid, { instance_info: { traits: ['CUSTOM_TUNED'] } });
  ran.length = 0;
  await svc.api.doNodeDeploy(node.uuid, { rebuild: false, extraData: { admin_password: 'x' } });
  await waitForNode(tmp.db, node.uuid, stable('active'));
  assert.deepEqual(ran, [{ step: 'tune', args: { level: 11 }, extra: { admin_password: 'x' } }]);
});

test('a failing user deploy step fails the deploy with Ironic\'s message and history', async () => {
  const node = await availableNode('exploding');
  await svc.api.doNodeDeploy(node.uuid, {
    rebuild: false, deploySteps: [{ interface: 'bios', step: 'explode', args: {}, priority: 120 }],
  });
  const n = await waitForNode(tmp.db, node.uuid, (x) => x.provision_state === 'deploy failed');
  assert.equal(n.target_provision_state, 'active');
  assert.equal(n.last_error, 'Deploy step bios.explode failed: kaboom.');
  assert.deepEqual(n.deploy_step, {});
  const history = await tmp.db.knex('node_history').where({ node_id: n.id });
  assert.equal(history[0].event_type, 'deploying');
});

test('user deploy steps are validated before the deploy starts', async () => {
  const node = await availableNode('invalid-steps');
  await assert.rejects(svc.api.doNodeDeploy(node.uuid, {
    rebuild: false, deploySteps: [{ interface: 'bios', step: 'tune', args: {}, priority: 10 }],
  }), (err: Error) => {
    assert.equal(err.name, 'InstanceDeployFailure');
    assert.match(err.message, /^Failed to validate deploy or power info for node .*: Validation of deploy steps from "deploy steps" argument failed\.deploy step \{'interface': 'bios', 'step': 'tune', 'args': \{\}, 'priority': 10\} is missing these required arguments: level \(how much\)$/);
    return true;
  });
  const after = await waitForNode(tmp.db, node.uuid, stable('available'));
  assert.equal(after.reservation, null);
});
