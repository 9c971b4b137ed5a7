/**
 * The `neutron` DHCP provider and the `flat` network interface side by side with Ironic 29.0.5,
 * against one real Neutron 26 (support/neutron.ts). Each server gets the same options and a
 * fake-hardware node with the direct deploy and iPXE boot whose port carries a tenant VIF (a
 * Neutron port made as Nova makes one); deploying it to `wait call-back` binds the VIF and sets
 * the boot options, undeploying unbinds it. The Neutron port each server leaves must be the same
 * (extra_dhcp_opts, binding, MAC), its node's uuid standing where the other has its own.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { startNeutron, type NeutronRow, type RealNeutron } from '../support/neutron';
import { startReferenceIronic, type ReferenceIronic } from '../support/reference-ironic';
import { freePort, startIronicTsWithConf, type Target } from '../support/target';

const VERSION = '1.96';
let httpUrl = '';

type Options = Record<string, Record<string, string>>;

function sharedOptions(dir: string, neutronUrl: string, port: number): Options {
  return {
    DEFAULT: {
      my_ip: '127.0.0.1',
      enabled_hardware_types: 'fake-hardware',
      enabled_boot_interfaces: 'fake,ipxe',
      enabled_deploy_interfaces: 'fake,direct',
      enabled_network_interfaces: 'noop,flat',
      enabled_management_interfaces: 'fake',
      enabled_power_interfaces: 'fake',
    },
    dhcp: { dhcp_provider: 'neutron' },
    // Where the agent would call back (in the iPXE config, not in the compared DHCP options).
    service_catalog: { endpoint_override: `http://127.0.0.1:${port}` },
    neutron: { auth_type: 'none', endpoint_override: neutronUrl, cleaning_network: 'cleaning' },
    deploy: { http_root: `${dir}/http`, http_url: httpUrl },
    pxe: { tftp_root: `${dir}/tftp`, tftp_master_path: `${dir}/tftp/master`, images_path: `${dir}/images`, instance_master_path: `${dir}/master` },
    conductor: { automated_clean: 'false', file_url_allowed_paths: dir, deploy_callback_timeout: '0' },
  };
}

function optionsEnv(opts: Options): Record<string, string> {
  return Object.fromEntries(Object.entries(opts).flatMap(([group, values]) =>
    Object.entries(values).map(([k, v]) => [`OS_${group.toUpperCase()}__${k.toUpperCase()}`, v])));
}

function optionsIni(dir: string, port: number, opts: Options): string {
  const all: Options = {
    ...opts,
    DEFAULT: { auth_strategy: 'noauth', host: 'ironic-ts', rpc_transport: 'none', state_path: `${dir}/state`, ...opts.DEFAULT },
    api: { host_ip: '127.0.0.1', port: String(port) },
    database: { connection: `sqlite:///${dir}/ironic.sqlite` },
  };
  return Object.entries(all).map(([group, values]) =>
    `[${group}]\n${Object.entries(values).map(([k, v]) => `${k} = ${v}`).join('\n')}\n`).join('');
}

interface Server {
  url: string;
  dir: string;
  mac: string;
  vif: string;
  node?: string;
  instanceInfo?: Record<string, string>;
}

/**
 * [deploy]http_url for both servers: one address (it is in the boot options compared) serving
 * both http_roots, so each finds the images it cached (Ironic checks them with a HEAD).
 */
function startUnionHttp(roots: string[]): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = roots.map((r) => path.join(r, rel)).find((f) => !rel.includes('..') && fs.existsSync(f) && fs.statSync(f).isFile());
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Length': fs.statSync(file).size });
    if (req.method === 'HEAD') res.end();
    else fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

let httpServer: http.Server | undefined;
let neutron: RealNeutron;
let reference: ReferenceIronic | undefined;
let candidate: Target | undefined;
const servers: Server[] = [];
const dirs: string[] = [];

function scratch(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  // The boot interfaces check their roots exist when they load.
  for (const sub of ['http', 'tftp/master', 'images', 'master']) fs.mkdirSync(path.join(dir, sub), { recursive: true });
  return dir;
}

async function api(base: string, method: string, p: string, body?: unknown): Promise<Record<string, any>> {
  const res = await fetch(`${base}${p}`, {
    method, headers: { 'X-OpenStack-Ironic-API-Version': VERSION, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  assert.ok(res.ok, `${method} ${base}${p}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : {};
}

async function waitState(base: string, uuid: string, state: string, timeoutMs = 60_000): Promise<Record<string, any>> {
  const deadline = Date.now() + timeoutMs;
  let node: Record<string, any> = {};
  while (Date.now() < deadline) {
    node = await api(base, 'GET', `/v1/nodes/${uuid}`);
    if (node.provision_state === state && !node.reservation) return node;
    if (/fail/.test(String(node.provision_state))) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.fail(`node ${uuid} at ${base} is ${node.provision_state}, not ${state}: ${node.last_error}`);
}

/** Kernel, ramdisk and image files inside the server's directory (the reference sees only that). */
function bootFiles(dir: string): { kernel: string; ramdisk: string; image: string; sha256: string } {
  const files = { kernel: path.join(dir, 'deploy.kernel'), ramdisk: path.join(dir, 'deploy.initramfs'), image: path.join(dir, 'disk.img') };
  fs.writeFileSync(files.kernel, 'kernel');
  fs.writeFileSync(files.ramdisk, 'ramdisk');
  const image = Buffer.alloc(1024 * 1024, 7);
  fs.writeFileSync(files.image, image);
  return { ...files, sha256: createHash('sha256').update(image).digest('hex') };
}

async function enroll(server: Server): Promise<string> {
  const files = bootFiles(server.dir);
  server.instanceInfo = { image_source: `file://${files.image}`, image_os_hash_algo: 'sha256', image_os_hash_value: files.sha256 };
  const node = await api(server.url, 'POST', '/v1/nodes', {
    driver: 'fake-hardware', boot_interface: 'ipxe', deploy_interface: 'direct', network_interface: 'flat',
    driver_info: { deploy_kernel: `file://${files.kernel}`, deploy_ramdisk: `file://${files.ramdisk}` },
    instance_info: server.instanceInfo,
  });
  await api(server.url, 'POST', '/v1/ports', {
    node_uuid: node.uuid, address: server.mac, pxe_enabled: true,
    local_link_connection: { switch_id: '0a:1b:2c:3d:4e:5f', port_id: `Ethernet1/${server.mac.slice(-1)}`, switch_info: 'tor-1' },
  });
  await api(server.url, 'PUT', `/v1/nodes/${node.uuid}/states/provision`, { target: 'manage' });
  await waitState(server.url, node.uuid, 'manageable');
  await api(server.url, 'PUT', `/v1/nodes/${node.uuid}/states/provision`, { target: 'provide' });
  await waitState(server.url, node.uuid, 'available');
  return node.uuid;
}

/** What a server left on its VIF, with its node's uuid and its port's MAC made neutral. */
function comparable(port: NeutronRow, server: Server): unknown {
  const opts = (port.extra_dhcp_opts as { opt_name: string; opt_value: string; ip_version: number }[])
    .map((o) => ({ ...o })).sort((a, b) => a.opt_name.localeCompare(b.opt_name));
  // A MAC reset gives the port a fresh one of Neutron's base_mac (fa:16:3e:...).
  const neutral = (v: unknown) => (v === server.node ? '<node>' : v === server.mac ? '<mac>'
    : typeof v === 'string' && v.startsWith('fa:16:3e:') ? '<neutron mac>' : v);
  return {
    extra_dhcp_opts: opts,
    host: neutral(port['binding:host_id']),
    vnic_type: port['binding:vnic_type'],
    profile: port['binding:profile'],
    mac: neutral(port.mac_address),
    device_owner: port.device_owner,
  };
}

before(async () => {
  neutron = await startNeutron();
  await neutron.createNetwork({ name: 'cleaning', cidr: '10.40.0.0/24' });
  const tenant = await neutron.createNetwork({ name: 'tenant', type: 'vlan', segmentationId: 101, cidr: '10.41.0.0/24' });
  const refDir = scratch('ref-neutron-');
  const tsDir = scratch('ts-neutron-');
  const [refPort, tsPort] = [await freePort(), await freePort()];
  httpServer = await startUnionHttp([path.join(refDir, 'http'), path.join(tsDir, 'http')]);
  httpUrl = `http://127.0.0.1:${(httpServer.address() as { port: number }).port}`;
  reference = await startReferenceIronic({
    dir: refDir, port: refPort, release: '2025.1', env: optionsEnv(sharedOptions(refDir, neutron.url, refPort)),
  });
  candidate = await startIronicTsWithConf(tsDir, tsPort, optionsIni(tsDir, tsPort, sharedOptions(tsDir, neutron.url, tsPort)));
  for (const [url, dir, mac] of [[reference.url, refDir, '52:54:00:4e:00:01'], [candidate.url, tsDir, '52:54:00:4e:00:02']]) {
    servers.push({ url, dir, mac, vif: String((await neutron.createPort(String(tenant.id), { name: `vif-${mac}` })).id) });
  }
}, { timeout: 20 * 60_000 });

after(async () => {
  await reference?.stop();
  await candidate?.stop();
  await neutron?.stop();
  httpServer?.close();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

test('VIF attach, deploy (flat binding + neutron DHCP options) and undeploy leave the Neutron port as 29.0.5 does', async () => {
  for (const server of servers) {
    server.node = await enroll(server);
    await api(server.url, 'POST', `/v1/nodes/${server.node}/vifs`, { id: server.vif });
  }
  // Attaching gives the VIF the node port's MAC.
  for (const server of servers) assert.equal((await neutron.showPort(server.vif))?.mac_address, server.mac);

  for (const server of servers) {
    await api(server.url, 'PUT', `/v1/nodes/${server.node}/states/provision`, { target: 'active' });
    await waitState(server.url, server.node!, 'wait call-back');
  }
  const deployed = await Promise.all(servers.map(async (s) => comparable((await neutron.showPort(s.vif))!, s)));
  assert.equal((deployed[1] as { host: string }).host, '<node>');
  assert.ok((deployed[0] as { extra_dhcp_opts: unknown[] }).extra_dhcp_opts.length > 0, 'the reference set boot options');
  assert.deepEqual(deployed[1], deployed[0]);

  for (const server of servers) {
    await api(server.url, 'PUT', `/v1/nodes/${server.node}/states/provision`, { target: 'deleted' });
    await waitState(server.url, server.node!, 'available');
  }
  const undeployed = await Promise.all(servers.map(async (s) => comparable((await neutron.showPort(s.vif))!, s)));
  assert.equal((undeployed[1] as { host: string }).host, '');
  assert.deepEqual(undeployed[1], undeployed[0]);
});

/** PUT provision target active: the status and body (a refusal is an answer here). */
async function deploy(server: Server): Promise<{ status: number; body: string }> {
  const res = await fetch(`${server.url}/v1/nodes/${server.node}/states/provision`, {
    method: 'PUT', headers: { 'X-OpenStack-Ironic-API-Version': VERSION, 'Content-Type': 'application/json' },
    body: JSON.stringify({ target: 'active' }),
  });
  return { status: res.status, body: await res.text() };
}

async function waitFailed(base: string, uuid: string): Promise<Record<string, any>> {
  const deadline = Date.now() + 120_000;
  let node: Record<string, any> = {};
  while (Date.now() < deadline) {
    node = await api(base, 'GET', `/v1/nodes/${uuid}`);
    if (node.provision_state === 'deploy failed' && !node.reservation) return node;
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.fail(`node ${uuid} at ${base} is ${node.provision_state}, not deploy failed`);
}

test('Neutron down when a deploy starts: deploy failed with the same last_error as 29.0.5', async () => {
  assert.ok(servers.every((s) => s.node), 'the nodes of the first test');
  for (const server of servers) {
    await api(server.url, 'PATCH', `/v1/nodes/${server.node}`, Object.entries(server.instanceInfo!).map(([k, v]) => ({ op: 'add', path: `/instance_info/${k}`, value: v })));
  }
  await neutron.stop();
  const outcomes = [];
  for (const server of servers) {
    const answer = await deploy(server);
    const node = answer.status === 202 ? await waitFailed(server.url, server.node!) : await api(server.url, 'GET', `/v1/nodes/${server.node}`);
    outcomes.push({ status: answer.status, answer: answer.status === 202 ? '' : answer.body.split(server.node!).join('<node>'),
      provision_state: node.provision_state, last_error: String(node.last_error).split(server.node!).join('<node>') });
  }
  assert.match(JSON.stringify(outcomes[0]), /version discovery document|Could not retrieve network|Unable to establish connection/);
  assert.deepEqual(outcomes[1], outcomes[0]);
});
