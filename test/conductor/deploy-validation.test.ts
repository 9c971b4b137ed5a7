import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startConductorService, ConductorService } from '../../src/conductor/service';
import { encodeInsert } from '../../src/db/codec';
import { makeConf, sqliteDb, TempDb } from './support';

let tmp: TempDb;
let svc: ConductorService;

async function addTemplate(name: string, priority: number): Promise<void> {
  const now = new Date();
  const [tid] = await tmp.db.knex('deploy_templates').insert(encodeInsert('deploy_templates',
    { uuid: `e0f7c5a8-1b2c-4d3e-8f90-a1b2c3d4e5${String(priority).padStart(2, '0')}`, name, extra: {}, version: '1.1' },
    tmp.db.dialect, now));
  await tmp.db.knex('deploy_template_steps').insert(encodeInsert('deploy_template_steps',
    { deploy_template_id: tid, interface: 'deploy', step: 'deploy', args: {}, priority, version: '1.0' },
    tmp.db.dialect, now));
}

before(async () => {
  tmp = await sqliteDb();
  svc = await startConductorService({ conf: makeConf('validation-host'), db: tmp.db });
  await addTemplate('CUSTOM_OVERRIDE_CORE', 50);
});

after(async () => {
  await svc.stop();
  await tmp.cleanup();
});

async function nodeWithInstanceTraits(name: string, instanceTraits: unknown, nodeTraits: string[]) {
  const node = await svc.api.createNode({ name, driver: 'fake-hardware' });
  if (nodeTraits.length) await svc.api.addNodeTraits(node.uuid, nodeTraits, false);
  await svc.api.updateNode(node.uuid, { instance_info: { traits: instanceTraits } });
  await tmp.db.knex('nodes').where({ id: node.id }).update({ provision_state: 'available' });
  return node;
}

test('node validation: instance traits missing on the node fail the deploy interface', async () => {
  const node = await nodeWithInstanceTraits('missing-trait', ['CUSTOM_A'], []);
  const result = await svc.api.validateDriverInterfaces(node.uuid);
  assert.deepEqual(result.deploy, {
    result: false,
    reason: `Cannot specify instance traits that are not also set on the node. Node ${node.uuid} is missing traits CUSTOM_A`,
  });
  assert.deepEqual(result.power, { result: true });
});

test('node validation: instance traits that are not a list of strings', async () => {
  const node = await nodeWithInstanceTraits('bad-traits', 'CUSTOM_A', []);
  const result = await svc.api.validateDriverInterfaces(node.uuid);
  assert.equal(result.deploy.reason,
    `Error parsing traits from Node ${node.uuid} instance_info field. A list of strings is expected.`);
});

test('node validation and deploy: a matching template that overrides the core step', async () => {
  const node = await nodeWithInstanceTraits('override-core', ['CUSTOM_OVERRIDE_CORE'], ['CUSTOM_OVERRIDE_CORE']);
  const reason = 'Validation of deploy steps from deploy templates matching this node\'s instance traits failed. ' +
    'Matching deploy templates: CUSTOM_OVERRIDE_CORE. Errors: deploy step deploy on interface deploy is a core step ' +
    'and cannot be overridden by user steps. It may be disabled by setting the priority to 0';
  const result = await svc.api.validateDriverInterfaces(node.uuid);
  assert.deepEqual(result.deploy, { result: false, reason });
  await assert.rejects(svc.api.doNodeDeploy(node.uuid, { rebuild: false }), (err: Error) => {
    assert.equal(err.name, 'InstanceDeployFailure');
    assert.equal(err.message, `Failed to validate deploy or power info for node ${node.uuid}: ${reason}`);
    return true;
  });
});

test('node validation passes when instance traits are node traits and match no template', async () => {
  const node = await nodeWithInstanceTraits('plain-trait', ['CUSTOM_PLAIN'], ['CUSTOM_PLAIN']);
  const result = await svc.api.validateDriverInterfaces(node.uuid);
  assert.deepEqual(result.deploy, { result: true });
});
