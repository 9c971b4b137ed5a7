/**
 * Neutron going away mid-deploy, after the node's provisioning port was created and bound: with
 * the `neutron` network interface a node waits in `wait call-back` on its provisioning port when
 * neutron-server is killed; the agent then comes and the deploy runs on until
 * switch_to_tenant_network, which cannot reach Neutron. As in Ironic 29.0.5
 * (log_and_raise_deployment_error, set_failed_state) the node ends in `deploy failed`, powered
 * off, with last_error naming the step and keystoneauth's failure. Nothing more is done to
 * Neutron then: once Neutron is back the provisioning port is still there, bound, until undeploy's
 * tear down removes it (and detaches the VIF); after the cleaning that follows no port is bound to
 * the node, and it deploys again. Real Keystone, Neutron 26 and the baremetal CLI (neutron-lab.ts).
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { assertBound, LLC, startNeutronLab, type NeutronLab } from './neutron-lab';

let lab: NeutronLab;

before(async () => {
  lab = await startNeutronLab('neutron-down');
}, { timeout: 20 * 60_000 });

after(async () => {
  await lab?.stop();
});

test('neutron-server killed while the node waits on its bound provisioning port: deploy failed, ports removed by undeploy', async () => {
  const mac = '52:54:00:6e:00:11';
  const llc = LLC(11);
  const disk = path.join(lab.dir, 'down.disk');
  const uuid = await lab.enroll('nd-neutron', 'neutron', mac, llc);
  await lab.provide(uuid);
  const vif = String((await lab.neutron.createPort(lab.tenantNet, { name: 'tenant-vif-down' })).id);
  await lab.bm(['node', 'vif', 'attach', uuid, vif]);

  await lab.bm(['node', 'deploy', uuid]);
  await lab.waitState(uuid, 'wait call-back');
  const provisioning = await lab.portsOn(lab.provisioningNet, mac);
  assert.equal(provisioning.length, 1, 'one provisioning port while deploying');
  assertBound(provisioning[0], uuid, llc, 'provisioning port before the outage');

  await lab.neutron.kill();
  const failed = await lab.withAgent(mac, disk, () => lab.waitState(uuid, 'deploy failed'));
  assert.equal(failed.last_error, 'Deploy step deploy.switch_to_tenant_network failed: ' +
    `Error changing node ${uuid} to tenant networks after deploy. DiscoveryFailure: Unable to find a version discovery document at ` +
    `${lab.neutron.url}, the service is unavailable or misconfigured. Required version range (any - any), version hack disabled.`);
  assert.equal(failed.power_state, 'power off', '[deploy]power_off_after_deploy_failure');
  assert.deepEqual(failed.deploy_step, {}, 'no deploy step left running');

  await lab.neutron.restart();
  const left = await lab.portsOn(lab.provisioningNet, mac);
  assert.equal(left.length, 1, 'the failure leaves the provisioning port to the tear down');
  assert.equal(left[0].id, provisioning[0].id);
  assert.equal((await lab.neutron.showPort(vif))?.['binding:host_id'], '', 'the tenant VIF was never bound');

  await lab.bm(['node', 'undeploy', uuid]);
  await lab.waitState(uuid, 'clean wait');
  assert.deepEqual(await lab.portsOn(lab.provisioningNet, mac), [], 'tear down removed the provisioning port');
  assertBound((await lab.portsOn(lab.cleaningNet, mac))[0], uuid, llc, 'cleaning port');
  await lab.withAgent(mac, disk, () => lab.waitState(uuid, 'available'));
  assert.deepEqual(await lab.neutron.listPorts({ 'binding:host_id': uuid }), [], 'no port bound to the node once it is available');
  assert.equal((await lab.neutron.showPort(vif))?.['binding:host_id'], '');
  assert.deepEqual(JSON.parse(await lab.bm(['node', 'vif', 'list', uuid, '-f', 'json'])), [], 'tear down detached the VIF');

  // Deployed again, as the user would: the VIF attached anew, the image given again.
  await lab.bm(['node', 'vif', 'attach', uuid, vif]);
  await lab.setImage(uuid);
  await lab.bm(['node', 'deploy', uuid]);
  await lab.waitState(uuid, 'wait call-back');
  assertBound((await lab.portsOn(lab.provisioningNet, mac))[0], uuid, llc, 'provisioning port of the second deploy');
  await lab.withAgent(mac, disk, () => lab.waitState(uuid, 'active'));
  assert.deepEqual(await lab.portsOn(lab.provisioningNet, mac), [], 'provisioning port removed after the switch');
  assertBound(await lab.neutron.showPort(vif), uuid, llc, 'tenant VIF once active');
  assert.deepEqual((await lab.neutron.listPorts({ 'binding:host_id': uuid })).map((p) => p.id), [vif], 'only the tenant VIF bound');
});
