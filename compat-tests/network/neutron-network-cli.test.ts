/**
 * Drop-in inside an existing cloud: ironic-ts talking to a real Neutron 26 behind a real Keystone
 * ([neutron] password auth, the catalog-less endpoint_override), driven with Debian 13's
 * `baremetal` CLI. A fake-hardware node with the direct deploy, iPXE boot and an agent (the
 * project's IPA emulator) gets a tenant VIF attached and is deployed and undeployed with automated
 * cleaning; at each stage Neutron's own API shows what Ironic 29.0.5 leaves there:
 *
 *  - neutron network interface: while deploying, a provisioning port for the node's port, bound
 *    (binding:host_id = node uuid, vif_type other) with its local link information; once active it
 *    is gone and the tenant VIF is bound the same way; while cleaning, a cleaning port likewise,
 *    gone once available, and the tenant VIF unbound and detached (tear down's remove_vifs_from_node).
 *  - flat: the tenant VIF bound to the node while deploying and once active (no provisioning
 *    port), cleaning ports that come and go, the VIF unbound after.
 *
 * Nova 31's ironic driver on the same lab: neutron-nova.test.ts; Neutron dying mid-deploy: neutron-down.test.ts.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { DEBIAN13_CLIENTS } from '../support/python';
import { API, assertBound, LLC, startNeutronLab, type NeutronLab } from './neutron-lab';

let lab: NeutronLab;

before(async () => {
  lab = await startNeutronLab('neutron-cli');
}, { timeout: 20 * 60_000 });

after(async () => {
  await lab?.stop();
});

test('neutron network interface: provisioning, tenant and cleaning ports at each stage, through the baremetal CLI', async () => {
  const mac = '52:54:00:6e:00:01';
  const llc = LLC(1);
  const disk = path.join(lab.dir, 'neutron.disk');
  const uuid = await lab.enroll('nn-neutron', 'neutron', mac, llc);
  await lab.provide(uuid);

  const vif = String((await lab.neutron.createPort(lab.tenantNet, { name: 'tenant-vif-1' })).id);
  await lab.bm(['node', 'vif', 'attach', uuid, vif]);
  assert.equal((await lab.neutron.showPort(vif))?.mac_address, mac, 'the VIF takes the node port\'s MAC');

  await lab.bm(['node', 'deploy', uuid]);
  await lab.waitState(uuid, 'wait call-back');
  const provisioning = await lab.portsOn(lab.provisioningNet, mac);
  assert.equal(provisioning.length, 1, 'one provisioning port while deploying');
  assertBound(provisioning[0], uuid, llc, 'provisioning port');
  assert.ok((provisioning[0].extra_dhcp_opts as unknown[]).length > 0, 'boot options on the provisioning port');
  assert.equal((await lab.neutron.showPort(vif))?.['binding:host_id'], '', 'tenant VIF unbound while provisioning');

  await lab.withAgent(mac, disk, () => lab.waitState(uuid, 'active'));
  assert.deepEqual(await lab.portsOn(lab.provisioningNet, mac), [], 'provisioning port removed after the switch');
  assertBound(await lab.neutron.showPort(vif), uuid, llc, 'tenant VIF once active');
  assert.equal((await lab.node(uuid)).provision_state, 'active');

  await lab.bm(['node', 'undeploy', uuid]);
  await lab.waitState(uuid, 'clean wait');
  assertBound((await lab.portsOn(lab.cleaningNet, mac))[0], uuid, llc, 'cleaning port after undeploy');
  assert.equal((await lab.neutron.showPort(vif))?.['binding:host_id'], '', 'tenant VIF unbound on undeploy');
  await lab.withAgent(mac, disk, () => lab.waitState(uuid, 'available'));
  assert.deepEqual(await lab.portsOn(lab.cleaningNet, mac), [], 'cleaning port removed');
  assert.deepEqual(JSON.parse(await lab.bm(['node', 'vif', 'list', uuid, '-f', 'json'])), [], 'tear down detached the VIF');
});

test('flat network interface: tenant VIF bound for provisioning and the instance, cleaning ports come and go', async () => {
  const mac = '52:54:00:6e:00:02';
  const llc = LLC(2);
  const disk = path.join(lab.dir, 'flat.disk');
  const uuid = await lab.enroll('nn-flat', 'flat', mac, llc);
  await lab.provide(uuid);

  const vif = String((await lab.neutron.createPort(lab.tenantNet, { name: 'tenant-vif-2' })).id);
  await lab.bm(['node', 'vif', 'attach', uuid, vif]);
  await lab.bm(['node', 'deploy', uuid]);
  await lab.waitState(uuid, 'wait call-back');
  const during = await lab.neutron.showPort(vif);
  assert.equal(during?.['binding:host_id'], uuid, 'flat binds the tenant VIF for provisioning');
  assert.equal(during?.['binding:vnic_type'], 'baremetal');
  assert.equal(during?.mac_address, mac);
  assert.deepEqual(await lab.portsOn(lab.provisioningNet, mac), [], 'flat creates no provisioning port');
  assert.ok((during?.extra_dhcp_opts as unknown[]).length > 0, 'boot options on the tenant VIF');

  await lab.withAgent(mac, disk, () => lab.waitState(uuid, 'active'));
  assert.equal((await lab.neutron.showPort(vif))?.['binding:host_id'], uuid, 'tenant VIF bound once active');

  await lab.bm(['node', 'undeploy', uuid]);
  await lab.waitState(uuid, 'clean wait');
  assert.equal((await lab.portsOn(lab.cleaningNet, mac)).length, 1, 'cleaning port while cleaning');
  await lab.withAgent(mac, disk, () => lab.waitState(uuid, 'available'));
  assert.deepEqual(await lab.portsOn(lab.cleaningNet, mac), [], 'cleaning port removed');
  assert.equal((await lab.neutron.showPort(vif))?.['binding:host_id'], '', 'tenant VIF unbound after undeploy');
  assert.deepEqual(JSON.parse(await lab.bm(['node', 'vif', 'list', uuid, '-f', 'json'])), [], 'tear down detached the VIF');
});

test('port and portgroup changes reach Neutron as 29.0.5 makes them (port_changed, portgroup_changed)', async () => {
  const mac = '52:54:00:6e:00:03';
  const uuid = await lab.enroll('nn-changes', 'neutron', mac, LLC(3));
  const port = (JSON.parse(await lab.bm(['port', 'list', '--node', uuid, '-f', 'json'])) as Array<{ UUID: string }>)[0].UUID;
  const vif = String((await lab.neutron.createPort(lab.tenantNet, { name: 'tenant-vif-3' })).id);
  await lab.bm(['node', 'vif', 'attach', uuid, vif]);
  assert.equal((await lab.neutron.showPort(vif))?.mac_address, mac, 'attach gives the VIF the port\'s MAC');

  const newMac = '52:54:00:6e:00:33';
  await lab.bm(['port', 'set', port, '--address', newMac]);
  assert.equal((await lab.neutron.showPort(vif))?.mac_address, newMac, 'a new port address goes to the VIF');

  const clientId = 'ff:00:00:00:00:00:02:00:00:02:c9:00:52:54:00:6e:00:33';
  await lab.bm(['port', 'set', port, '--extra', `client-id=${clientId}`]);
  const opts = (await lab.neutron.showPort(vif))?.extra_dhcp_opts as Array<{ opt_name: string; opt_value: string }>;
  assert.deepEqual(opts.filter((o) => o.opt_name === '61').map((o) => o.opt_value), [clientId], 'client-id as DHCP option 61');
  await lab.bm(['port', 'unset', port, '--extra', 'client-id']);
  const left = (await lab.neutron.showPort(vif))?.extra_dhcp_opts as Array<{ opt_name: string }>;
  assert.deepEqual(left.filter((o) => o.opt_name === '61'), [], 'an unset client-id removes the option');

  // A PXE-enabled port carrying a VIF cannot join a portgroup without standalone ports.
  const pg = (JSON.parse(await lab.bm(['port', 'group', 'create', '--node', uuid, '--unsupport-standalone-ports', '-f', 'json'])) as { uuid: string }).uuid;
  const joined = await DEBIAN13_CLIENTS.baremetal(lab.target.url, ['port', 'set', port, '--port-group', pg], API);
  assert.notEqual(joined.code, 0);
  assert.match(joined.stderr, new RegExp(`Port group ${pg} doesn't support standalone ports\\. This port ${port} cannot be  a member of that ` +
    `port group because of: 'pxe_enabled' was set to True, VIF ${vif} is attached to the port \\(HTTP 409\\)`));
  const shown = JSON.parse(await lab.bm(['port', 'show', port, '-f', 'json', '--fields', 'portgroup_uuid'])) as { portgroup_uuid: string | null };
  assert.equal(shown.portgroup_uuid, null, 'the refused change is not saved');
});

test('neutron network interface: rescue boots on a rescuing port of its own, and the tenant VIF comes back', async () => {
  const mac = '52:54:00:6e:00:04';
  const llc = LLC(4);
  const disk = path.join(lab.dir, 'rescue.disk');
  const uuid = await lab.enroll('nn-rescue', 'neutron', mac, llc);
  await lab.bm(['node', 'set', uuid, '--rescue-interface', 'agent', '--driver-info', `rescue_kernel=file://${lab.dir}/deploy.kernel`,
    '--driver-info', `rescue_ramdisk=file://${lab.dir}/deploy.initramfs`]);
  await lab.provide(uuid);
  const vif = String((await lab.neutron.createPort(lab.tenantNet, { name: 'tenant-vif-4' })).id);
  await lab.bm(['node', 'vif', 'attach', uuid, vif]);
  await lab.bm(['node', 'deploy', uuid]);
  await lab.withAgent(mac, disk, () => lab.waitState(uuid, 'active'));

  await lab.bm(['node', 'rescue', uuid, '--rescue-password', 'R3scue-pass']);
  await lab.waitState(uuid, 'rescue wait');
  assertBound((await lab.portsOn(lab.rescuingNet, mac))[0], uuid, llc, 'rescuing port while the rescue ramdisk boots');
  assert.equal((await lab.neutron.showPort(vif))?.['binding:host_id'], '', 'tenant VIF unbound while rescuing');
  await lab.withAgent(mac, disk, () => lab.waitState(uuid, 'rescue'));
  assert.deepEqual(await lab.portsOn(lab.rescuingNet, mac), [], 'rescuing port removed once rescued');
  assertBound(await lab.neutron.showPort(vif), uuid, llc, 'tenant VIF bound again in rescue');

  await lab.bm(['node', 'unrescue', uuid]);
  await lab.waitState(uuid, 'active');
  assertBound(await lab.neutron.showPort(vif), uuid, llc, 'tenant VIF bound after unrescue');
  assert.deepEqual(await lab.portsOn(lab.rescuingNet, mac), []);
});
