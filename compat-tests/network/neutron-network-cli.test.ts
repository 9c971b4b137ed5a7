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
 *    gone once available, and the tenant VIF unbound.
 *  - flat: the tenant VIF bound to the node while deploying and once active (no provisioning
 *    port), cleaning ports that come and go, the VIF unbound after.
 *
 * Nova's ironic driver path is not exercised here.
 */
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { startAgentEmulator, type AgentEmulator } from '../../src/emulators/agent/server';
import { buildExt4Image, sha256File, startStaticServer, type StaticServer } from '../../test/drivers/deploy/agent-support';
import { startKeystone, type Keystone } from '../support/keystone';
import { startNeutron, type NeutronRow, type RealNeutron } from '../support/neutron';
import { DEBIAN13_CLIENTS, parseJson } from '../support/python';
import { freePort, startIronicTsWithConf, type Target } from '../support/target';

const API = '1.96';
const LLC = (n: number) => ({ switch_id: '0a:1b:2c:3d:4e:5f', port_id: `Ethernet1/${n}`, switch_info: 'tor-1' });

let ks: Keystone;
let neutron: RealNeutron;
let target: Target;
let httpRoot: StaticServer;
let dir: string;
let image: string;
let tenantNet: string;
let provisioningNet: string;
let cleaningNet: string;
let rescuingNet: string;

function ironicConf(port: number, ksUrl: string): string {
  return `[DEFAULT]
auth_strategy = noauth
host = ironic-ts
rpc_transport = none
my_ip = 127.0.0.1
state_path = ${dir}/state
enabled_hardware_types = fake-hardware
enabled_boot_interfaces = fake,ipxe
enabled_deploy_interfaces = fake,direct
enabled_rescue_interfaces = no-rescue,agent
enabled_management_interfaces = fake,noop
enabled_power_interfaces = fake
enabled_network_interfaces = flat,neutron,noop
[api]
host_ip = 127.0.0.1
port = ${port}
[database]
connection = sqlite:///${dir}/ironic.sqlite
[dhcp]
dhcp_provider = neutron
[neutron]
auth_type = password
auth_url = ${ksUrl}/v3
username = ironic
password = ironic-service-password
project_name = service
user_domain_name = Default
project_domain_name = Default
endpoint_override = ${neutron.url}
provisioning_network = provisioning
cleaning_network = cleaning
rescuing_network = rescuing
[service_catalog]
endpoint_override = http://127.0.0.1:${port}
[deploy]
http_root = ${dir}/http
http_url = ${httpRoot.url}
erase_devices_priority = 0
[pxe]
tftp_root = ${dir}/tftp
tftp_master_path = ${dir}/tftp/master
images_path = ${dir}/images
instance_master_path = ${dir}/master
[conductor]
automated_clean = true
file_url_allowed_paths = ${dir}
[agent]
post_deploy_get_power_state_retries = 0
`;
}

before(async () => {
  dir = await fsp.mkdtemp('/tmp/neutron-cli-');
  for (const sub of ['http', 'tftp/master', 'images', 'master', 'state']) await fsp.mkdir(path.join(dir, sub), { recursive: true });
  httpRoot = await startStaticServer(path.join(dir, 'http'));
  image = await buildExt4Image(dir);
  await fsp.writeFile(path.join(dir, 'deploy.kernel'), 'kernel');
  await fsp.writeFile(path.join(dir, 'deploy.initramfs'), 'ramdisk');
  await DEBIAN13_CLIENTS.prepare();
  ks = await startKeystone();
  await ks.createUser('neutron', { password: 'neutron-service-password', project: 'service', projectRoles: ['admin', 'service'] });
  await ks.createUser('ironic', { password: 'ironic-service-password', project: 'service', projectRoles: ['admin', 'service'] });
  neutron = await startNeutron({
    url: ks.url, username: 'neutron', password: 'neutron-service-password', project: 'service',
    token: () => ks.token({ user: 'ironic', password: 'ironic-service-password', project: 'service' }),
  });
  provisioningNet = String((await neutron.createNetwork({ name: 'provisioning', physnet: 'physnet2', cidr: '10.50.0.0/24' })).id);
  cleaningNet = String((await neutron.createNetwork({ name: 'cleaning', physnet: 'physnet3', cidr: '10.51.0.0/24' })).id);
  rescuingNet = String((await neutron.createNetwork({ name: 'rescuing', physnet: 'physnet4', cidr: '10.53.0.0/24' })).id);
  tenantNet = String((await neutron.createNetwork({ name: 'tenant', type: 'vlan', segmentationId: 120, cidr: '10.52.0.0/24' })).id);
  const port = await freePort();
  await fsp.mkdir(path.join(dir, 'ironic'));
  target = await startIronicTsWithConf(path.join(dir, 'ironic'), port, ironicConf(port, ks.url));
}, { timeout: 20 * 60_000 });

after(async () => {
  await target?.stop();
  await neutron?.stop();
  await ks?.stop();
  await httpRoot?.stop();
  await fsp.rm(dir, { recursive: true, force: true });
});

async function bm(args: string[]): Promise<string> {
  const res = await DEBIAN13_CLIENTS.baremetal(target.url, args, API);
  assert.equal(res.code, 0, `baremetal ${args.join(' ')}: ${res.stderr}`);
  return res.stdout;
}

async function node(uuid: string): Promise<Record<string, any>> {
  return parseJson<Record<string, any>>(await DEBIAN13_CLIENTS.baremetal(target.url, ['node', 'show', uuid, '-f', 'json'], API));
}

async function waitState(uuid: string, state: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let shown: Record<string, any> = {};
  while (Date.now() < deadline) {
    const res = await fetch(`${target.url}/v1/nodes/${uuid}`, { headers: { 'X-OpenStack-Ironic-API-Version': API } });
    shown = await res.json() as Record<string, any>;
    if (shown.provision_state === state && !shown.reservation) return;
    if (/fail/.test(String(shown.provision_state))) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.fail(`node ${uuid} is ${shown.provision_state}, not ${state}: ${shown.last_error}`);
}

async function portsOn(network: string, mac: string): Promise<NeutronRow[]> {
  return neutron.listPorts({ network_id: network, mac_address: mac });
}

function assertBound(port: NeutronRow | null | undefined, nodeUuid: string, llc: unknown, what: string): void {
  assert.ok(port, `${what}: no such port`);
  assert.equal(port['binding:host_id'], nodeUuid, what);
  assert.equal(port['binding:vnic_type'], 'baremetal', what);
  assert.deepEqual((port['binding:profile'] as { local_link_information?: unknown }).local_link_information, [llc], what);
  assert.equal(port['binding:vif_type'], 'other', what);
}

async function withAgent<T>(mac: string, disk: string, body: () => Promise<T>): Promise<T> {
  // The machine's disk: a sparse file the agent cleans and writes the image to.
  const file = await fsp.open(disk, 'a');
  await file.truncate(16 * 1024 * 1024);
  await file.close();
  const agent: AgentEmulator = await startAgentEmulator({ ironicUrl: target.url, macs: [mac], heartbeatIntervalMs: 250, disks: { root: disk, configdrive: `${disk}.cd` } });
  try {
    return await body();
  } finally {
    await agent.stop();
  }
}

async function enroll(name: string, iface: 'neutron' | 'flat', mac: string, llc: Record<string, string>): Promise<string> {
  const created = parseJson<{ uuid: string }>(await DEBIAN13_CLIENTS.baremetal(target.url, ['node', 'create', '--driver', 'fake-hardware',
    '--name', name, '--deploy-interface', 'direct', '--boot-interface', 'ipxe', '--management-interface', 'noop', '--network-interface', iface,
    '--driver-info', `deploy_kernel=file://${dir}/deploy.kernel`, '--driver-info', `deploy_ramdisk=file://${dir}/deploy.initramfs`,
    '-f', 'json'], API));
  await bm(['node', 'set', created.uuid, '--instance-info', `image_source=file://${image}`, '--instance-info', 'image_os_hash_algo=sha256',
    '--instance-info', `image_os_hash_value=${await sha256File(image)}`]);
  await bm(['port', 'create', mac, '--node', created.uuid, '--pxe-enabled', 'true',
    ...Object.entries(llc).flatMap(([k, v]) => ['--local-link-connection', `${k}=${v}`])]);
  await bm(['node', 'manage', created.uuid, '--wait', '60']);
  return created.uuid;
}

/** provide without cleaning (the undeploy cleans), then automated cleaning for that undeploy. */
async function provide(uuid: string): Promise<void> {
  await bm(['node', 'set', uuid, '--no-automated-clean']);
  await bm(['node', 'provide', uuid, '--wait', '60']);
  await bm(['node', 'set', uuid, '--automated-clean']);
}

test('neutron network interface: provisioning, tenant and cleaning ports at each stage, through the baremetal CLI', async () => {
  const mac = '52:54:00:6e:00:01';
  const llc = LLC(1);
  const disk = path.join(dir, 'neutron.disk');
  const uuid = await enroll('nn-neutron', 'neutron', mac, llc);
  await provide(uuid);

  const vif = String((await neutron.createPort(tenantNet, { name: 'tenant-vif-1' })).id);
  await bm(['node', 'vif', 'attach', uuid, vif]);
  assert.equal((await neutron.showPort(vif))?.mac_address, mac, 'the VIF takes the node port\'s MAC');

  await bm(['node', 'deploy', uuid]);
  await waitState(uuid, 'wait call-back');
  const provisioning = await portsOn(provisioningNet, mac);
  assert.equal(provisioning.length, 1, 'one provisioning port while deploying');
  assertBound(provisioning[0], uuid, llc, 'provisioning port');
  assert.ok((provisioning[0].extra_dhcp_opts as unknown[]).length > 0, 'boot options on the provisioning port');
  assert.equal((await neutron.showPort(vif))?.['binding:host_id'], '', 'tenant VIF unbound while provisioning');

  await withAgent(mac, disk, () => waitState(uuid, 'active'));
  assert.deepEqual(await portsOn(provisioningNet, mac), [], 'provisioning port removed after the switch');
  assertBound(await neutron.showPort(vif), uuid, llc, 'tenant VIF once active');
  assert.equal((await node(uuid)).provision_state, 'active');

  await bm(['node', 'undeploy', uuid]);
  await waitState(uuid, 'clean wait');
  assertBound((await portsOn(cleaningNet, mac))[0], uuid, llc, 'cleaning port after undeploy');
  assert.equal((await neutron.showPort(vif))?.['binding:host_id'], '', 'tenant VIF unbound on undeploy');
  await withAgent(mac, disk, () => waitState(uuid, 'available'));
  assert.deepEqual(await portsOn(cleaningNet, mac), [], 'cleaning port removed');
  await bm(['node', 'vif', 'detach', uuid, vif]);
});

test('flat network interface: tenant VIF bound for provisioning and the instance, cleaning ports come and go', async () => {
  const mac = '52:54:00:6e:00:02';
  const llc = LLC(2);
  const disk = path.join(dir, 'flat.disk');
  const uuid = await enroll('nn-flat', 'flat', mac, llc);
  await provide(uuid);

  const vif = String((await neutron.createPort(tenantNet, { name: 'tenant-vif-2' })).id);
  await bm(['node', 'vif', 'attach', uuid, vif]);
  await bm(['node', 'deploy', uuid]);
  await waitState(uuid, 'wait call-back');
  const during = await neutron.showPort(vif);
  assert.equal(during?.['binding:host_id'], uuid, 'flat binds the tenant VIF for provisioning');
  assert.equal(during?.['binding:vnic_type'], 'baremetal');
  assert.equal(during?.mac_address, mac);
  assert.deepEqual(await portsOn(provisioningNet, mac), [], 'flat creates no provisioning port');
  assert.ok((during?.extra_dhcp_opts as unknown[]).length > 0, 'boot options on the tenant VIF');

  await withAgent(mac, disk, () => waitState(uuid, 'active'));
  assert.equal((await neutron.showPort(vif))?.['binding:host_id'], uuid, 'tenant VIF bound once active');

  await bm(['node', 'undeploy', uuid]);
  await waitState(uuid, 'clean wait');
  assert.equal((await portsOn(cleaningNet, mac)).length, 1, 'cleaning port while cleaning');
  await withAgent(mac, disk, () => waitState(uuid, 'available'));
  assert.deepEqual(await portsOn(cleaningNet, mac), [], 'cleaning port removed');
  assert.equal((await neutron.showPort(vif))?.['binding:host_id'], '', 'tenant VIF unbound after undeploy');
});

test('port and portgroup changes reach Neutron as 29.0.5 makes them (port_changed, portgroup_changed)', async () => {
  const mac = '52:54:00:6e:00:03';
  const uuid = await enroll('nn-changes', 'neutron', mac, LLC(3));
  const port = (JSON.parse(await bm(['port', 'list', '--node', uuid, '-f', 'json'])) as Array<{ UUID: string }>)[0].UUID;
  const vif = String((await neutron.createPort(tenantNet, { name: 'tenant-vif-3' })).id);
  await bm(['node', 'vif', 'attach', uuid, vif]);
  assert.equal((await neutron.showPort(vif))?.mac_address, mac, 'attach gives the VIF the port\'s MAC');

  const newMac = '52:54:00:6e:00:33';
  await bm(['port', 'set', port, '--address', newMac]);
  assert.equal((await neutron.showPort(vif))?.mac_address, newMac, 'a new port address goes to the VIF');

  const clientId = 'ff:00:00:00:00:00:02:00:00:02:c9:00:52:54:00:6e:00:33';
  await bm(['port', 'set', port, '--extra', `client-id=${clientId}`]);
  const opts = (await neutron.showPort(vif))?.extra_dhcp_opts as Array<{ opt_name: string; opt_value: string }>;
  assert.deepEqual(opts.filter((o) => o.opt_name === '61').map((o) => o.opt_value), [clientId], 'client-id as DHCP option 61');
  await bm(['port', 'unset', port, '--extra', 'client-id']);
  const left = (await neutron.showPort(vif))?.extra_dhcp_opts as Array<{ opt_name: string }>;
  assert.deepEqual(left.filter((o) => o.opt_name === '61'), [], 'an unset client-id removes the option');

  // A PXE-enabled port carrying a VIF cannot join a portgroup without standalone ports.
  const pg = (JSON.parse(await bm(['port', 'group', 'create', '--node', uuid, '--unsupport-standalone-ports', '-f', 'json'])) as { uuid: string }).uuid;
  const joined = await DEBIAN13_CLIENTS.baremetal(target.url, ['port', 'set', port, '--port-group', pg], API);
  assert.notEqual(joined.code, 0);
  assert.match(joined.stderr, new RegExp(`Port group ${pg} doesn't support standalone ports\\. This port ${port} cannot be  a member of that ` +
    `port group because of: 'pxe_enabled' was set to True, VIF ${vif} is attached to the port \\(HTTP 409\\)`));
  const shown = JSON.parse(await bm(['port', 'show', port, '-f', 'json', '--fields', 'portgroup_uuid'])) as { portgroup_uuid: string | null };
  assert.equal(shown.portgroup_uuid, null, 'the refused change is not saved');
});

test('neutron network interface: rescue boots on a rescuing port of its own, and the tenant VIF comes back', async () => {
  const mac = '52:54:00:6e:00:04';
  const llc = LLC(4);
  const disk = path.join(dir, 'rescue.disk');
  const uuid = await enroll('nn-rescue', 'neutron', mac, llc);
  await bm(['node', 'set', uuid, '--rescue-interface', 'agent', '--driver-info', `rescue_kernel=file://${dir}/deploy.kernel`,
    '--driver-info', `rescue_ramdisk=file://${dir}/deploy.initramfs`]);
  await provide(uuid);
  const vif = String((await neutron.createPort(tenantNet, { name: 'tenant-vif-4' })).id);
  await bm(['node', 'vif', 'attach', uuid, vif]);
  await bm(['node', 'deploy', uuid]);
  await withAgent(mac, disk, () => waitState(uuid, 'active'));

  await bm(['node', 'rescue', uuid, '--rescue-password', 'R3scue-pass']);
  await waitState(uuid, 'rescue wait');
  assertBound((await portsOn(rescuingNet, mac))[0], uuid, llc, 'rescuing port while the rescue ramdisk boots');
  assert.equal((await neutron.showPort(vif))?.['binding:host_id'], '', 'tenant VIF unbound while rescuing');
  await withAgent(mac, disk, () => waitState(uuid, 'rescue'));
  assert.deepEqual(await portsOn(rescuingNet, mac), [], 'rescuing port removed once rescued');
  assertBound(await neutron.showPort(vif), uuid, llc, 'tenant VIF bound again in rescue');

  await bm(['node', 'unrescue', uuid]);
  await waitState(uuid, 'active');
  assertBound(await neutron.showPort(vif), uuid, llc, 'tenant VIF bound after unrescue');
  assert.deepEqual(await portsOn(rescuingNet, mac), []);
});
