/**
 * A real ironic-ts (API + conductor, built-in TFTP and HTTP servers, dnsmasq DHCP provider
 * writing into a temp dir) for the network boot interfaces, plus `test-netboot`: a deploy
 * interface that drives the boot interface as the agent deploy does (prepare -> prepareRamdisk,
 * deploy step -> root UUID reported -> prepareInstance, clean up -> cleanUpRamdisk/Instance),
 * with a hook to hold the deploy step so tests can look at the files mid-deploy.
 */
import { execFile } from 'node:child_process';
import * as dgram from 'node:dgram';
import { promises as fsp } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import assert from 'node:assert/strict';
import { DELETED, DEPLOYING } from '../../../src/common/states';
import type { DeployInterface } from '../../../src/drivers/base';
import { registerInterface } from '../../../src/drivers/catalog';
import { renderDnsmasqConf } from '../../../src/dhcp/dnsmasq-conf';
import { startTestServer, type TestServer } from '../../api/support/server';
import { OUT_OF_BAND_CLEAN_AND_SERVICE } from '../../../src/drivers/deploy/out-of-band-only';

export const run = promisify(execFile);
export const ROOT_UUID = '2f3c6c1e-9d7b-4b8e-a1f0-5d8a0b7c9e11';
export const VERSION = '1.82';

export const hooks: { duringDeploy?: (nodeUuid: string) => Promise<void> } = {};

registerInterface('deploy', 'test-netboot', (): DeployInterface => ({
  kind: 'deploy', name: 'test-netboot', className: 'TestNetbootDeploy',
  properties: () => ({}),
  async validate(task) {
    await task.driver.boot.validate(task);
  },
  steps: [{ step: 'deploy', kinds: ['deploy'], priority: 100 }],
  async executeStep(task) {
    await hooks.duringDeploy?.(task.node.uuid);
    // What the agent reports after writing a partition image.
    task.node.driver_internal_info = { ...(task.node.driver_internal_info ?? {}), root_uuid_or_disk_id: ROOT_UUID, is_whole_disk_image: false };
    await task.saveNode();
    await task.driver.boot.prepareInstance(task);
    return null;
  },
  async tearDown() {
    return DELETED;
  },
  async prepare(task) {
    if (task.node.provision_state === DEPLOYING) await task.driver.boot.prepareRamdisk(task, { 'ipa-debug': '1' }, 'deploy');
  },
  async cleanUp(task) {
    await task.driver.boot.cleanUpRamdisk(task, 'deploy');
    await task.driver.boot.cleanUpInstance(task);
  },
  async takeOver() {},
  ...OUT_OF_BAND_CLEAN_AND_SERVICE,
  async heartbeat() {},
}));

export function freeTcpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export function freeUdpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = dgram.createSocket('udp4');
    s.bind(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export interface BootEnv {
  dir: string;
  tftpRoot: string;
  httpRoot: string;
  hostsDir: string;
  optsDir: string;
  tftpPort: number;
  httpUrl: string;
  images: { deployKernel: string; deployRamdisk: string; kernel: string; ramdisk: string; disk: string };
  server: TestServer;
  stop(): Promise<void>;
}

export async function startBootEnv(extra: Record<string, Record<string, string>> = {}): Promise<BootEnv> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'boot-iface-'));
  const images = {
    deployKernel: path.join(dir, 'src', 'ipa.kernel'), deployRamdisk: path.join(dir, 'src', 'ipa.initramfs'),
    kernel: path.join(dir, 'src', 'vmlinuz'), ramdisk: path.join(dir, 'src', 'initrd'), disk: path.join(dir, 'src', 'disk.img'),
  };
  await fsp.mkdir(path.join(dir, 'src'));
  for (const [name, file] of Object.entries(images)) await fsp.writeFile(file, `${name} bytes `.repeat(300));
  const tftpPort = await freeUdpPort();
  const httpPort = await freeTcpPort();
  const env = {
    dir, tftpRoot: path.join(dir, 'tftpboot'), httpRoot: path.join(dir, 'httpboot'),
    hostsDir: path.join(dir, 'dnsmasq', 'hosts'), optsDir: path.join(dir, 'dnsmasq', 'opts'), tftpPort,
    httpUrl: `http://127.0.0.1:${httpPort}`, images,
  };
  const overrides: Record<string, Record<string, string>> = {
    DEFAULT: {
      enabled_boot_interfaces: 'fake,pxe,ipxe,http,http-ipxe,redfish-virtual-media', enabled_deploy_interfaces: 'fake,ramdisk,test-netboot',
      ...(extra.DEFAULT ?? {}),
    },
    pxe: {
      tftp_root: env.tftpRoot, tftp_master_path: path.join(dir, 'master_images'), tftp_server: '127.0.0.1',
      builtin_tftp_server: 'true', builtin_tftp_host: '127.0.0.1', builtin_tftp_port: String(tftpPort), ...(extra.pxe ?? {}),
    },
    deploy: {
      http_root: env.httpRoot, http_url: env.httpUrl,
      builtin_http_server: 'true', builtin_http_host: '127.0.0.1', builtin_http_port: String(httpPort), ...(extra.deploy ?? {}),
    },
    dhcp: { dhcp_provider: 'dnsmasq' },
    dnsmasq: { dhcp_hostsdir: env.hostsDir, dhcp_optsdir: env.optsDir, dhcp_leasefile: path.join(dir, 'dnsmasq', 'leases') },
  };
  let server: TestServer;
  try {
    server = await startTestServer(overrides);
  } catch (err) {
    await fsp.rm(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    ...env, server,
    async stop() {
      await server.stop();
      await fsp.rm(dir, { recursive: true, force: true });
    },
  };
}

export function macPath(mac: string): string {
  return mac.replace(/:/g, '-');
}

export async function createNode(env: BootEnv, body: Record<string, unknown>, macs: string[]): Promise<string> {
  const res = await env.server.request('POST', '/v1/nodes', { version: VERSION, body: { driver: 'fake-hardware', ...body } });
  assert.equal(res.status, 201, res.text);
  const uuid = res.json.uuid as string;
  for (const address of macs) {
    const p = await env.server.request('POST', '/v1/ports', { version: VERSION, body: { node_uuid: uuid, address } });
    assert.equal(p.status, 201, p.text);
  }
  return uuid;
}

export async function getNode(env: BootEnv, uuid: string): Promise<Record<string, any>> {
  return (await env.server.request('GET', `/v1/nodes/${uuid}`, { version: VERSION })).json;
}

/** `anyTarget`: failed states keep their target provision state. */
export async function waitForState(env: BootEnv, uuid: string, state: string, anyTarget = false): Promise<Record<string, any>> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const node = await getNode(env, uuid);
    if (node.provision_state === state && (anyTarget || !node.target_provision_state)) return node;
    if (Date.now() > deadline) assert.fail(`node ${uuid} stuck in ${node.provision_state} (last_error: ${node.last_error})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function provision(env: BootEnv, uuid: string, target: string): Promise<void> {
  const res = await env.server.request('PUT', `/v1/nodes/${uuid}/states/provision`, { version: VERSION, body: { target } });
  assert.equal(res.status, 202, res.text);
}

/** enroll -> manageable -> available */
export async function makeAvailable(env: BootEnv, uuid: string): Promise<void> {
  await provision(env, uuid, 'manage');
  await waitForState(env, uuid, 'manageable');
  await provision(env, uuid, 'provide');
  await waitForState(env, uuid, 'available');
}

export interface Deferred {
  promise: Promise<void>;
  resolve(): void;
}

export function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * Deploys `uuid` to active with the deploy held inside its deploy step: runs `during` there (boot
 * files in their deploy form), then lets the deploy finish and returns the active node.
 */
export async function deployHolding(env: BootEnv, uuid: string, during: () => Promise<void>): Promise<Record<string, any>> {
  const reached = deferred();
  const release = deferred();
  hooks.duringDeploy = async () => {
    reached.resolve();
    await release.promise;
  };
  await provision(env, uuid, 'active');
  try {
    await reached.promise;
    await during();
  } finally {
    release.resolve();
  }
  const node = await waitForState(env, uuid, 'active');
  assert.equal(node.last_error, null);
  return node;
}

export async function exists(p: string): Promise<boolean> {
  return fsp.lstat(p).then(() => true, () => false);
}

/** Checks the dnsmasq host/option files as dnsmasq itself would parse them. */
export async function dnsmasqTest(env: BootEnv): Promise<void> {
  const lines = [renderDnsmasqConf({ dhcp_hostsdir: env.hostsDir, dhcp_optsdir: env.optsDir, dhcp_range: '192.0.2.100,192.0.2.200,12h' })];
  for (const [dirName, prefix] of [[env.hostsDir, 'dhcp-host'], [env.optsDir, 'dhcp-option']] as const) {
    for (const f of await fsp.readdir(dirName)) {
      for (const l of (await fsp.readFile(path.join(dirName, f), 'utf8')).trim().split('\n')) lines.push(`${prefix}=${l}`);
    }
  }
  const file = path.join(env.dir, `dnsmasq-check-${Date.now()}.conf`);
  await fsp.writeFile(file, lines.join('\n') + '\n');
  const { stdout, stderr } = await run('/usr/sbin/dnsmasq', ['--test', `--conf-file=${file}`]);
  assert.match(stdout + stderr, /syntax check OK/);
}

/**
 * A node body deploying a partition image (instance kernel/ramdisk given) through `bootInterface`
 * with the test deploy interface; the instance ramdisk is a bare path, which reads as file://.
 */
export function partitionNode(env: BootEnv, bootInterface: string, bootMode: 'bios' | 'uefi'): Record<string, unknown> {
  return {
    boot_interface: bootInterface, deploy_interface: 'test-netboot',
    driver_info: { deploy_kernel: `file://${env.images.deployKernel}`, deploy_ramdisk: `file://${env.images.deployRamdisk}` },
    instance_info: { image_source: `file://${env.images.disk}`, kernel: `file://${env.images.kernel}`, ramdisk: env.images.ramdisk },
    properties: { capabilities: `boot_mode:${bootMode}` },
  };
}
