/**
 * A real (virtual) machine PXE-boots from Neutron's DHCP, as in a cloud: ironic-ts runs with
 * [dhcp]dhcp_provider = neutron and the `flat` network interface and no DHCP server of its own;
 * a real neutron-dhcp-agent 26 runs dnsmasq on the lab's network from the options ironic-ts put on
 * the node's Neutron port. The VM (QEMU behind ipmi_sim, the real IPA 10.2 ramdisk) gets its
 * address and iPXE script from that dnsmasq twice (firmware, then ramdisk), is deployed and boots
 * its disk. Everything runs in the lab's namespace; neutron-server and RabbitMQ stay on the host's
 * loopback, with Keystone, and reach the namespace through one bridged port each
 * (support/lab/host-bridge.ts).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createVhost } from '../../test/rpc/broker';
import { bridgeHostPort, type HostBridge } from '../support/lab/host-bridge';
import { bmOk as labBmOk, startLabIronic, waitState as labWaitState, type LabIronic, type LabRamdisk } from '../support/lab/ironic';
import { buildMarkerImage } from '../support/lab/marker-image';
import { createLabNetwork, labUnavailable, sh, type LabNetwork } from '../support/lab/network';
import { ensureRamdisk } from '../support/lab/ramdisk';
import { startLabVm, type LabVm } from '../support/lab/vm-bmc';
import { startKeystone, type Keystone } from '../support/keystone';
import { startDhcpAgent, type DhcpAgent } from '../support/neutron-dhcp-agent';
import { startNeutron, TEST_PROJECT, type NeutronRow, type RealNeutron } from '../support/neutron';

type Row = Record<string, any>;

const skip = labUnavailable();
const NEUTRON_PORT_IN_LAB = 9696;
const HTTP_PORT = 8080;
let dir: string;
let net: LabNetwork | undefined;
let vhost: ReturnType<typeof createVhost> | undefined;
let ks: Keystone | undefined;
let neutron: RealNeutron | undefined;
const bridges: HostBridge[] = [];
let agent: DhcpAgent | undefined;
let vm: LabVm | undefined;
let ironic: LabIronic | undefined;
let networkId: string;
let tenantNetworkId: string;
let uuid: string;
let vif: NeutronRow;
let image: { path: string; sha256: string };

function ironicConf(o: { net: LabNetwork; dir: string; ramdisk: LabRamdisk; keystoneUrl: string }): string {
  const ip = o.net.address;
  return `[DEFAULT]
auth_strategy = noauth
state_path = ${o.dir}/state
debug = true
my_ip = ${ip}
rpc_transport = none
enabled_hardware_types = ipmi
enabled_boot_interfaces = ipxe
enabled_deploy_interfaces = direct
enabled_inspect_interfaces = no-inspect
enabled_management_interfaces = ipmitool
enabled_power_interfaces = ipmitool
enabled_network_interfaces = flat,neutron
default_network_interface = flat
[api]
host_ip = ${ip}
port = 6385
allow_insecure_noauth = true
[database]
connection = sqlite:///${o.dir}/ironic.sqlite
[dhcp]
dhcp_provider = neutron
[neutron]
auth_type = password
auth_url = ${o.keystoneUrl}/v3
username = ironic
password = ironic-service-password
project_name = service
user_domain_name = Default
project_domain_name = Default
endpoint_override = http://127.0.0.1:${NEUTRON_PORT_IN_LAB}
cleaning_network = lab
provisioning_network = lab
[conductor]
deploy_kernel = file://${o.ramdisk.kernel}
deploy_ramdisk = file://${o.ramdisk.initramfs}
automated_clean = false
[pxe]
kernel_append_params = console=ttyS0,115200n8 nofb nomodeset vga=normal
builtin_tftp_server = true
builtin_tftp_host = ${ip}
tftp_server = ${ip}
tftp_root = ${o.dir}/tftpboot
tftp_master_path = ${o.dir}/tftp_master
images_path = ${o.dir}/images
instance_master_path = ${o.dir}/master_images
[deploy]
builtin_http_server = true
builtin_http_host = ${ip}
http_root = ${o.dir}/httpboot
http_url = http://${ip}:${HTTP_PORT}
erase_devices_priority = 0
[ipmi]
min_command_interval = 1
command_retry_timeout = 15
`;
}

const bmOk = (args: string[], timeoutMs?: number): Promise<string> => labBmOk(ironic!, args, timeoutMs);
const waitState = (want: string, timeoutMs: number): Promise<Row> => labWaitState(ironic!, uuid, want, timeoutMs, () => vm!.console());

async function waitFor<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/** Until the node waits for its agent (the ramdisk is booting), failing on a failed state. */
async function waitCallBack(): Promise<Row> {
  return waitFor('the node waiting for its agent', 300_000, async () => {
    const node = await ironic!.get<Row>(`/v1/nodes/${uuid}`);
    assert.doesNotMatch(String(node.provision_state), /fail/, String(node.last_error));
    return node.provision_state === 'wait call-back' ? node : undefined;
  });
}

/** dnsmasq's DHCPACKs to the VM at `ip`. */
async function acksTo(ip: string): Promise<string[]> {
  return (await agent!.dnsmasqLog(networkId)).split('\n').filter((line) => line.includes('DHCPACK') && line.includes(`${ip} ${vm!.mac}`));
}

/** The names of the processes running in the lab's namespace (the DHCP agent's dnsmasq is in a qdhcp- one). */
async function commandsInLab(): Promise<string[]> {
  const pids = (await sh('ip', ['netns', 'pids', net!.ns])).split(/\s+/).filter(Boolean);
  const names = await Promise.all(pids.map((pid) => fsp.readFile(`/proc/${pid}/comm`, 'utf8').then((c) => c.trim(), () => '')));
  return names.filter(Boolean);
}

before(async () => {
  if (skip) return;
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'ironic-ndhcp-'));
  await fsp.chmod(dir, 0o755);
  const ramdisk = await ensureRamdisk();
  net = await createLabNetwork({ name: 'its-ndhcp' });
  vhost = createVhost('ironic-ts-neutron-dhcp');
  // Keystone as in a cloud: Ironic's service user makes the provisioning ports (noauth Neutron
  // would refuse them without a project). Bridged on its own port number, so the URLs its version
  // documents give work inside the lab too.
  ks = await startKeystone();
  await ks.createUser('neutron', { password: 'neutron-service-password', project: 'service', projectRoles: ['admin', 'service'] });
  await ks.createUser('ironic', { password: 'ironic-service-password', project: 'service', projectRoles: ['admin', 'service'] });
  neutron = await startNeutron({
    url: ks.url, username: 'neutron', password: 'neutron-service-password', project: 'service',
    token: () => ks!.token({ user: 'ironic', password: 'ironic-service-password', project: 'service' }),
  }, { transportUrl: vhost.url });
  const ksPort = Number(new URL(ks.url).port);
  bridges.push(await bridgeHostPort(net, dir, ksPort, ksPort));
  bridges.push(await bridgeHostPort(net, dir, Number(new URL(neutron.url).port), NEUTRON_PORT_IN_LAB));
  bridges.push(await bridgeHostPort(net, dir, 5672, 5672));
  agent = await startDhcpAgent({ lab: net, dir, transportUrl: vhost.url });
  await waitFor('the DHCP agent alive in Neutron', 120_000, async () => {
    const agents = (await neutron!.api<{ agents: NeutronRow[] }>('GET', `/agents?binary=neutron-dhcp-agent&host=${agent!.host}`)).agents;
    return agents.find((a) => a.alive === true);
  });
  networkId = String((await neutron.createNetwork({ name: 'lab' })).id);
  // The lab's subnet: the conductor at .1 (outside the pool), Neutron allocating from .100.
  await neutron.api('POST', '/subnets', { subnet: {
    network_id: networkId, project_id: TEST_PROJECT, ip_version: 4, cidr: `${net.address.replace(/\.\d+$/, '.0')}/${net.prefix}`,
    gateway_ip: null, enable_dhcp: true, allocation_pools: [{ start: net.address.replace(/\.\d+$/, '.100'), end: net.address.replace(/\.\d+$/, '.199') }],
  } });
  // The instance's network for the neutron interface: no subnet, so nothing serves DHCP on it.
  tenantNetworkId = String((await neutron.createNetwork({ name: 'tenant', type: 'vlan', segmentationId: 130 })).id);
  await waitFor('dnsmasq of the DHCP agent serving the lab network', 180_000,
    async () => (/started, version/.test(await agent!.dnsmasqLog(networkId)) ? true : undefined));
  vm = await startLabVm({ net, dir });
  ironic = await startLabIronic({ net, dir, conf: ironicConf({ net, dir, ramdisk, keystoneUrl: ks.url }) });
  image = await buildMarkerImage(dir, ramdisk);
});

after(async () => {
  await ironic?.stop();
  await vm?.stop();
  await agent?.stop();
  for (const bridge of bridges) await bridge.stop();
  await neutron?.stop();
  await ks?.stop();
  vhost?.remove();
  await net?.destroy();
  if (dir && !process.env.IRONIC_TS_KEEP_E2E) await fsp.rm(dir, { recursive: true, force: true });
});

test('a flat node with a Neutron VIF: ironic-ts puts its PXE options on the port, and runs no DHCP server of its own', { skip: skip ?? false }, async () => {
  const created = JSON.parse(await bmOk(['node', 'create', '--driver', 'ipmi', '--name', 'neutron-dhcp-vm',
    '--boot-interface', 'ipxe', '--deploy-interface', 'direct', '--network-interface', 'flat',
    '--property', 'capabilities=boot_mode:bios',
    ...Object.entries(vm!.driverInfo()).flatMap(([k, v]) => ['--driver-info', `${k}=${v}`]), '-f', 'json'])) as Row;
  uuid = created.uuid;
  await bmOk(['port', 'create', vm!.mac, '--node', uuid, '--local-link-connection', 'switch_id=0a:1b:2c:3d:4e:5f',
    '--local-link-connection', 'port_id=Ethernet1/1', '--local-link-connection', 'switch_info=lab']);
  await bmOk(['node', 'manage', uuid, '--wait', '120']);
  await bmOk(['node', 'provide', uuid, '--wait', '120']);
  // The tenant port, as Nova's driver creates it: on the network, with the node's MAC, unbound.
  vif = await neutron!.createPort(networkId, { mac_address: vm!.mac, name: 'tenant-vif' });
  await bmOk(['node', 'vif', 'attach', uuid, String(vif.id)]);
  await bmOk(['node', 'set', uuid, '--instance-info', `image_source=file://${image.path}`,
    '--instance-info', 'image_os_hash_algo=sha256', '--instance-info', `image_os_hash_value=${image.sha256}`]);
  await bmOk(['node', 'deploy', uuid, '--config-drive', JSON.stringify({ meta_data: { hostname: 'neutron-dhcp-vm' } })]);
  await waitCallBack();
  const port = await neutron!.showPort(String(vif.id));
  assert.equal(port?.['binding:host_id'], uuid, 'flat binds the tenant port to the node');
  const opts = new Map((port?.extra_dhcp_opts as NeutronRow[]).map((o) => [`${String(o.opt_name)}/${String(o.ip_version)}`, o.opt_value]));
  assert.equal(opts.get('tag:ipxe,67/4'), `http://${net!.address}:${HTTP_PORT}/boot.ipxe`, JSON.stringify([...opts]));
  await fsp.access(path.join(dir, 'httpboot', 'boot.ipxe'));
  assert.equal((await commandsInLab()).includes('dnsmasq'), false, 'no dnsmasq runs in the lab namespace: Neutron\'s is in its qdhcp- namespace');
});

test('the VM gets its address and iPXE script from Neutron\'s dnsmasq, is deployed by IPA, and boots its disk', { skip: skip ?? false }, async () => {
  const node = await waitState('active', 2_400_000);
  assert.equal(node.last_error, null);
  const text = await vm!.waitConsole(/E2E-MARKER .*/, 900_000);
  assert.match(text, new RegExp(`E2E-MARKER uuid=${uuid} `), 'the instance booted from its disk with the config drive');
  const log = await agent!.dnsmasqLog(networkId);
  const acks = await acksTo(String((vif.fixed_ips as NeutronRow[])[0]!.ip_address));
  assert.ok(acks.length >= 2, `dnsmasq acknowledged the VM's firmware and its ramdisk:\n${log.slice(-3000)}`);
  assert.match(log, new RegExp(`bootfile-name\\s+http://${net!.address.replace(/\./g, '\\.')}:${HTTP_PORT}/boot\\.ipxe`),
    'dnsmasq sent the iPXE script URL from the port\'s options');
  assert.match(await vm!.console(), new RegExp(`ipa-api-url=http://${net!.address.replace(/\./g, '\\.')}:6385`), 'the VM booted the deploy ramdisk from ironic-ts');
});

test('undeploy: the node is available again and its tenant port unbound and detached', { skip: skip ?? false }, async () => {
  await bmOk(['node', 'undeploy', uuid]);
  const node = await waitState('available', 600_000);
  assert.equal(node.last_error, null);
  const port = await neutron!.showPort(String(vif.id));
  assert.equal(port?.['binding:host_id'], '', 'the tenant port is unbound');
  assert.deepEqual(JSON.parse(await bmOk(['node', 'vif', 'list', uuid, '-f', 'json'])), [], 'and detached, as 29.0.5\'s tear down does');
});

test('the neutron interface: the VM PXE-boots from Neutron\'s dnsmasq on its provisioning port, which is gone once the tenant port is bound', { skip: skip ?? false }, async () => {
  await bmOk(['node', 'manage', uuid, '--wait', '120']);
  await bmOk(['node', 'set', uuid, '--network-interface', 'neutron']);
  await bmOk(['node', 'provide', uuid, '--wait', '120']);
  // As Nova creates it for the neutron interface: on the tenant network, Neutron's own MAC.
  const tenant = await neutron!.createPort(tenantNetworkId, { name: 'tenant-vif-2' });
  await bmOk(['node', 'vif', 'attach', uuid, String(tenant.id)]);
  await bmOk(['node', 'set', uuid, '--instance-info', `image_source=file://${image.path}`,
    '--instance-info', 'image_os_hash_algo=sha256', '--instance-info', `image_os_hash_value=${image.sha256}`]);
  const from = (await vm!.console()).length;
  await bmOk(['node', 'deploy', uuid, '--config-drive', JSON.stringify({ meta_data: { hostname: 'neutron-dhcp-vm' } })]);
  await waitCallBack();
  const [provisioning] = await neutron!.listPorts({ network_id: networkId, mac_address: vm!.mac });
  assert.ok(provisioning, 'a provisioning port with the node\'s MAC on the provisioning network');
  assert.equal(provisioning['binding:host_id'], uuid);
  const opts = new Map((provisioning.extra_dhcp_opts as NeutronRow[]).map((o) => [String(o.opt_name), o.opt_value]));
  assert.equal(opts.get('tag:ipxe,67'), `http://${net!.address}:${HTTP_PORT}/boot.ipxe`);
  const node = await waitState('active', 2_400_000);
  assert.equal(node.last_error, null);
  assert.match(await vm!.waitConsole(/E2E-MARKER .*/, 900_000, from), new RegExp(`E2E-MARKER uuid=${uuid} `));
  const provisioningIp = String((provisioning.fixed_ips as NeutronRow[])[0]!.ip_address);
  assert.ok((await acksTo(provisioningIp)).length >= 2, 'dnsmasq acknowledged the VM on the provisioning port\'s address');
  assert.deepEqual(await neutron!.listPorts({ network_id: networkId, mac_address: vm!.mac }), [], 'the provisioning port is gone');
  const bound = await neutron!.showPort(String(tenant.id));
  assert.equal(bound?.['binding:host_id'], uuid, 'the tenant port is bound to the node');
  assert.equal(bound?.mac_address, vm!.mac, 'with the node\'s MAC');
});
