/**
 * The cloud the Neutron compat-tests deploy in: a real Keystone, a real Neutron 26 behind it with
 * provisioning (physnet2), cleaning (physnet3), rescuing (physnet4) and tenant (vlan 120) networks, and ironic-ts with
 * the fake-hardware type, direct deploy and iPXE boot, [dhcp]dhcp_provider = neutron and
 * [neutron] password auth with endpoint_override. Nodes are enrolled and driven with Debian 13's
 * `baremetal` CLI; the project's IPA emulator plays the agent.
 */
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { startAgentEmulator, type AgentEmulator } from '../../src/emulators/agent/server';
import { buildExt4Image, sha256File, startStaticServer, type StaticServer } from '../../test/drivers/deploy/agent-support';
import { startKeystone, type Keystone } from '../support/keystone';
import { startNeutron, type NeutronOptions, type NeutronRow, type RealNeutron } from '../support/neutron';
import { DEBIAN13_CLIENTS, parseJson } from '../support/python';
import { freePort, startIronicTsWithConf, type Target } from '../support/target';

export const API = '1.96';
export const LLC = (n: number): Record<string, string> => ({ switch_id: '0a:1b:2c:3d:4e:5f', port_id: `Ethernet1/${n}`, switch_info: 'tor-1' });

export interface NeutronLab {
  ks: Keystone;
  neutron: RealNeutron;
  target: Target;
  dir: string;
  /** The deploy image (file://) and its sha256. */
  image: string;
  tenantNet: string;
  provisioningNet: string;
  cleaningNet: string;
  rescuingNet: string;
  /** The baremetal CLI; asserts it succeeded. */
  bm(args: string[]): Promise<string>;
  node(uuid: string): Promise<Record<string, any>>;
  /** Until the node rests in `state` (unlocked); fails at once on a *fail state. */
  waitState(uuid: string, state: string, timeoutMs?: number): Promise<Record<string, any>>;
  portsOn(network: string, mac: string): Promise<NeutronRow[]>;
  /** An agent (with a sparse disk at `disk`) for the node's MAC while body runs. */
  withAgent<T>(mac: string, disk: string, body: () => Promise<T>): Promise<T>;
  /** The deploy image in the node's instance_info (which undeploy wipes). */
  setImage(uuid: string): Promise<void>;
  /** A node with one port (mac, local link information) and the image in instance_info, manageable. */
  enroll(name: string, iface: 'neutron' | 'flat', mac: string, llc: Record<string, string>): Promise<string>;
  /** provide without cleaning (the undeploy cleans), then automated cleaning for that undeploy. */
  provide(uuid: string): Promise<void>;
  stop(): Promise<void>;
}

function ironicConf(dir: string, port: number, ksUrl: string, neutronUrl: string, httpUrl: string): string {
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
${neutronSection(ksUrl, neutronUrl)}provisioning_network = provisioning
cleaning_network = cleaning
rescuing_network = rescuing
[service_catalog]
endpoint_override = http://127.0.0.1:${port}
[deploy]
http_root = ${dir}/http
http_url = ${httpUrl}
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

/** The [neutron] section ironic-ts (and, in tests, Ironic 29.0.5 itself) uses to reach the lab's Neutron. */
export function neutronSection(ksUrl: string, neutronUrl: string): string {
  return `[neutron]
auth_type = password
auth_url = ${ksUrl}/v3
username = ironic
password = ironic-service-password
project_name = service
user_domain_name = Default
project_domain_name = Default
endpoint_override = ${neutronUrl}
`;
}

export interface NeutronLabOptions {
  neutron?: NeutronOptions;
  /** Options set in ironic-ts's configuration ({group: {option: value}}), replacing the lab's. */
  ironic?: Record<string, Record<string, string>>;
}

/** The lab's configuration text with `overrides` set in it. */
function withOverrides(conf: string, overrides: Record<string, Record<string, string>>): string {
  let text = conf;
  for (const [group, values] of Object.entries(overrides)) {
    if (!text.includes(`\n[${group}]\n`)) text += `[${group}]\n`;
    for (const [name, value] of Object.entries(values)) {
      const start = text.indexOf(`\n[${group}]\n`) + group.length + 4;
      const next = text.indexOf('\n[', start);
      const end = next < 0 ? text.length : next + 1;
      const section = text.slice(start, end).split('\n').filter((l) => !l.startsWith(`${name} =`));
      section.unshift(`${name} = ${value}`);
      text = text.slice(0, start) + section.join('\n') + text.slice(end);
    }
  }
  return text;
}

export async function startNeutronLab(prefix: string, opts: NeutronLabOptions = {}): Promise<NeutronLab> {
  const dir = await fsp.mkdtemp(`/tmp/${prefix}-`);
  for (const sub of ['http', 'tftp/master', 'images', 'master', 'state', 'ironic']) await fsp.mkdir(path.join(dir, sub), { recursive: true });
  const stops: (() => Promise<void>)[] = [];
  const stop = async (): Promise<void> => {
    for (const s of stops.reverse()) await s().catch(() => undefined);
    await fsp.rm(dir, { recursive: true, force: true });
  };
  try {
    const httpRoot: StaticServer = await startStaticServer(path.join(dir, 'http'));
    stops.push(() => httpRoot.stop());
    const image = await buildExt4Image(dir);
    await fsp.writeFile(path.join(dir, 'deploy.kernel'), 'kernel');
    await fsp.writeFile(path.join(dir, 'deploy.initramfs'), 'ramdisk');
    await DEBIAN13_CLIENTS.prepare();
    const ks = await startKeystone();
    stops.push(() => ks.stop());
    await ks.createUser('neutron', { password: 'neutron-service-password', project: 'service', projectRoles: ['admin', 'service'] });
    await ks.createUser('ironic', { password: 'ironic-service-password', project: 'service', projectRoles: ['admin', 'service'] });
    const neutron = await startNeutron({
      url: ks.url, username: 'neutron', password: 'neutron-service-password', project: 'service',
      token: () => ks.token({ user: 'ironic', password: 'ironic-service-password', project: 'service' }),
    }, opts.neutron);
    stops.push(() => neutron.stop());
    const provisioningNet = String((await neutron.createNetwork({ name: 'provisioning', physnet: 'physnet2', cidr: '10.50.0.0/24' })).id);
    const cleaningNet = String((await neutron.createNetwork({ name: 'cleaning', physnet: 'physnet3', cidr: '10.51.0.0/24' })).id);
    const rescuingNet = String((await neutron.createNetwork({ name: 'rescuing', physnet: 'physnet4', cidr: '10.53.0.0/24' })).id);
    const tenantNet = String((await neutron.createNetwork({ name: 'tenant', type: 'vlan', segmentationId: 120, cidr: '10.52.0.0/24' })).id);
    const port = await freePort();
    const target = await startIronicTsWithConf(path.join(dir, 'ironic'), port, withOverrides(ironicConf(dir, port, ks.url, neutron.url, httpRoot.url), opts.ironic ?? {}));
    stops.push(() => target.stop());
    return labHandle({ ks, neutron, target, dir, image, tenantNet, provisioningNet, cleaningNet, rescuingNet, stop });
  } catch (err) {
    await stop();
    throw err;
  }
}

type LabBase = Pick<NeutronLab, 'ks' | 'neutron' | 'target' | 'dir' | 'image' | 'tenantNet' | 'provisioningNet' | 'cleaningNet' | 'rescuingNet' | 'stop'>;

function labHandle(base: LabBase): NeutronLab {
  const { target, neutron, dir, image } = base;
  const bm = async (args: string[]): Promise<string> => {
    const res = await DEBIAN13_CLIENTS.baremetal(target.url, args, API);
    assert.equal(res.code, 0, `baremetal ${args.join(' ')}: ${res.stderr}`);
    return res.stdout;
  };
  const setImage = async (uuid: string): Promise<void> => {
    await bm(['node', 'set', uuid, '--instance-info', `image_source=file://${image}`, '--instance-info', 'image_os_hash_algo=sha256',
      '--instance-info', `image_os_hash_value=${await sha256File(image)}`]);
  };
  return {
    ...base,
    bm,
    setImage,
    async node(uuid) {
      return parseJson<Record<string, any>>(await DEBIAN13_CLIENTS.baremetal(target.url, ['node', 'show', uuid, '-f', 'json'], API));
    },
    async waitState(uuid, state, timeoutMs = 90_000) {
      const deadline = Date.now() + timeoutMs;
      let shown: Record<string, any> = {};
      while (Date.now() < deadline) {
        const res = await fetch(`${target.url}/v1/nodes/${uuid}`, { headers: { 'X-OpenStack-Ironic-API-Version': API } });
        shown = await res.json() as Record<string, any>;
        if (shown.provision_state === state && !shown.reservation) return shown;
        if (/fail/.test(String(shown.provision_state)) && !/fail/.test(state)) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      return assert.fail(`node ${uuid} is ${shown.provision_state}, not ${state}: ${shown.last_error}`);
    },
    portsOn: (network, mac) => neutron.listPorts({ network_id: network, mac_address: mac }),
    async withAgent(mac, disk, body) {
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
    },
    async enroll(name, iface, mac, llc) {
      const created = parseJson<{ uuid: string }>(await DEBIAN13_CLIENTS.baremetal(target.url, ['node', 'create', '--driver', 'fake-hardware',
        '--name', name, '--deploy-interface', 'direct', '--boot-interface', 'ipxe', '--management-interface', 'noop', '--network-interface', iface,
        '--driver-info', `deploy_kernel=file://${dir}/deploy.kernel`, '--driver-info', `deploy_ramdisk=file://${dir}/deploy.initramfs`,
        '-f', 'json'], API));
      await setImage(created.uuid);
      await bm(['port', 'create', mac, '--node', created.uuid, '--pxe-enabled', 'true',
        ...Object.entries(llc).flatMap(([k, v]) => ['--local-link-connection', `${k}=${v}`])]);
      await bm(['node', 'manage', created.uuid, '--wait', '60']);
      return created.uuid;
    },
    async provide(uuid) {
      await bm(['node', 'set', uuid, '--no-automated-clean']);
      await bm(['node', 'provide', uuid, '--wait', '60']);
      await bm(['node', 'set', uuid, '--automated-clean']);
    },
  };
}

/** The port is bound to the node as a baremetal port with the link information given. */
export function assertBound(port: NeutronRow | null | undefined, nodeUuid: string, llc: unknown, what: string): void {
  assert.ok(port, `${what}: no such port`);
  assert.equal(port['binding:host_id'], nodeUuid, what);
  assert.equal(port['binding:vnic_type'], 'baremetal', what);
  assert.deepEqual((port['binding:profile'] as { local_link_information?: unknown }).local_link_information, [llc], what);
  assert.equal(port['binding:vif_type'], 'other', what);
}
