import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startConductorService, ConductorService } from '../../src/conductor/service';
import { InstanceDeployFailure } from '../../src/common/errors';
import { registerInterface } from '../../src/drivers/catalog';
import { createFakeDeploy } from '../../src/drivers/deploy/fake';
import type { DeployInterface } from '../../src/drivers/base';
import { ALL_FAKE, makeConf, sqliteDb, TempDb, waitForNode } from './support';

/** A deploy interface whose tear down fails, as when the BMC is gone while undeploying. */
registerInterface('deploy', 'breaks-teardown', (): DeployInterface => ({
  ...createFakeDeploy(), name: 'breaks-teardown', className: 'BreaksTearDown',
  async tearDown() {
    throw new InstanceDeployFailure('the BMC went away');
  },
}));

let tmp: TempDb;
let svc: ConductorService;

before(async () => {
  tmp = await sqliteDb();
  svc = await startConductorService({
    conf: makeConf('teardown-host', { DEFAULT: { enabled_deploy_interfaces: [...ALL_FAKE.enabled_deploy_interfaces, 'breaks-teardown'] } }),
    db: tmp.db,
  });
});

after(async () => {
  await svc.stop();
  await tmp.cleanup();
});

test('a failed tear down ends in error with "Failed to tear down", and still forgets the instance and its VIFs', async () => {
  const node = await svc.api.createNode({ name: 'td-fails', driver: 'fake-hardware', deploy_interface: 'breaks-teardown', network_interface: 'flat' });
  await svc.manager.createPort({ address: '52:54:00:7d:00:01', node_id: node.id });
  await tmp.db.knex('nodes').where({ uuid: node.uuid }).update({
    provision_state: 'active', instance_uuid: 'c0ffee00-0000-4000-8000-000000000001', power_state: 'power on',
    instance_info: JSON.stringify({ image_source: 'http://example.invalid/img' }),
  });
  await svc.manager.vifAttach(node.uuid, { id: 'vif-of-the-instance' });
  assert.deepEqual((await svc.manager.vifList(node.uuid)).map((v) => v.id), ['vif-of-the-instance']);

  await svc.manager.doNodeTearDown(node.uuid);
  const failed = await waitForNode(tmp.db, node.uuid, (n) => n.provision_state === 'error');
  assert.equal(failed.last_error, 'Failed to tear down: the BMC went away');
  assert.equal(failed.instance_uuid, null);
  assert.deepEqual(failed.instance_info, {});
  assert.deepEqual(await svc.manager.vifList(node.uuid), [], 'the VIFs are removed on failure too');
});
