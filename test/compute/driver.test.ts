/**
 * The compute shim against a real ironic-ts (fake-hardware, flat networking): spawn takes an
 * available node to active with Nova's instance_uuid/instance_info, the VIF plugged and Nova's
 * config drive; a second spawn is refused as Nova refuses it; destroy brings the node back to
 * available with the instance and VIFs cleared.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startTestServer, TestServer } from '../api/support/server';
import { IronicClient, IronicNode } from '../../src/compute/client';
import { ComputeDriver } from '../../src/compute/driver';
import {
  ComputeResourcesUnavailable, ConsoleUnavailableError, IronicApiError, NodeAlreadyAssociatedError, UnrescueFailedError,
} from '../../src/compute/errors';
import { decodeConfigDrive } from '../../src/images/configdrive';
import type { SpawnRequest } from '../../src/compute/types';

const INSTANCE = '6a1b2c3d-0000-4000-8000-00000000abcd';
const SSH_KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFakeKeyForTests test@compute';
const VIF = '7d9c0f00-1111-4222-8333-000000000001';
const PORT_MAC = '52:54:00:00:00:21';

async function waitState(client: IronicClient, node: string, state: string): Promise<IronicNode> {
  for (let i = 0; i < 400; i++) {
    const n = await client.getNode(node);
    if (n.provision_state === state && n.target_provision_state === null) return n;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`node ${node} never reached ${state}`);
}

/** Enroll -> manageable -> available, powered off: what Nova's scheduler would pick. */
async function availableNode(client: IronicClient, name: string): Promise<string> {
  const node = await client.request<IronicNode>('POST', '/v1/nodes', {
    driver: 'fake-hardware', name, network_interface: 'flat', console_interface: 'fake', resource_class: 'baremetal',
    properties: { cpus: 4, memory_mb: 8192, local_gb: 40, cpu_arch: 'x86_64' },
  });
  await client.request('POST', '/v1/ports', { node_uuid: node.uuid, address: PORT_MAC });
  await client.setProvisionState(node.uuid, { target: 'manage' });
  await waitState(client, node.uuid, 'manageable');
  await client.setProvisionState(node.uuid, { target: 'provide' });
  await waitState(client, node.uuid, 'available');
  await client.setPowerState(node.uuid, 'power off');
  // The flavor requires CUSTOM_GOLD; Ironic's deploy validation wants it on the node too.
  await client.request('PUT', `/v1/nodes/${node.uuid}/traits/CUSTOM_GOLD`);
  return node.uuid;
}

/** Pulls a file out of the ISO with xorriso (the tool the builder uses). */
function isoFile(iso: Buffer, inside: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'compute-iso-'));
  try {
    const isoPath = path.join(dir, 'cd.iso');
    fs.writeFileSync(isoPath, iso);
    const out = path.join(dir, 'out');
    execFileSync('xorriso', ['-osirrox', 'on', '-indev', isoPath, '-extract', inside, out], { stdio: 'ignore' });
    return fs.readFileSync(out, 'utf8');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('compute driver', () => {
  let server: TestServer;
  let client: IronicClient;
  let driver: ComputeDriver;
  let node: string;
  const phases: string[] = [];

  before(async () => {
    server = await startTestServer({ DEFAULT: { enabled_network_interfaces: 'flat,noop', enabled_console_interfaces: 'fake,no-console' } });
    client = new IronicClient({ url: server.url });
    driver = new ComputeDriver(client, { intervalMs: 25, timeoutMs: 20000, onProgress: (e) => phases.push(e.phase) });
    node = await availableNode(client, 'bm-0');
  });
  after(async () => server.stop());

  const request = (): SpawnRequest => ({
    node, instanceUuid: INSTANCE, name: 'web-1', image: 'http://127.0.0.1:1/image.qcow2',
    flavor: { name: 'baremetal', vcpus: 4, memoryMb: 8192, rootGb: 30, capabilities: { boot_mode: 'uefi' }, traits: ['CUSTOM_GOLD'] },
    keyPair: { name: 'default', publicKey: SSH_KEY }, userData: '#cloud-config\nhostname: web-1\n', adminPass: 'secret',
    files: [{ path: '/etc/motd', contents: 'hello' }], host: 'compute-test',
    networkInfo: [{
      id: VIF, address: 'fa:16:3e:00:00:01', type: 'other',
      network: { id: 'net-1', mtu: 1500, subnets: [{ cidr: '192.0.2.0/24', ips: ['192.0.2.10'], gateway: '192.0.2.1', dns: ['192.0.2.2'] }] },
    }],
  });

  it('spawns: active, instance set, Nova instance_info, config drive stored', async () => {
    const n = await driver.spawn(request());
    assert.equal(n.provision_state, 'active');
    assert.equal(n.instance_uuid, INSTANCE);
    assert.ok(phases.includes('deploying'));
    const info = (await client.getNode(node)).instance_info;
    assert.equal(info.image_source, 'http://127.0.0.1:1/image.qcow2');
    assert.equal(info.root_gb, '30');
    assert.equal(info.swap_mb, '0');
    assert.equal(info.vcpus, '4');
    assert.equal(info.memory_mb, '8192');
    assert.equal(info.local_gb, '40');
    assert.equal(info.display_name, 'web-1');
    assert.equal(info.nova_host_id, 'compute-test');
    assert.equal(info.capabilities, '{"boot_mode": "uefi"}', "Python's JSON spelling, as Nova's jsonutils writes it");
    assert.deepEqual(info.traits, ['CUSTOM_GOLD']);

    const row = await server.db.knex('nodes').where({ uuid: node }).first();
    const stored = JSON.parse(row.instance_info as string) as { configdrive: string };
    const iso = decodeConfigDrive(stored.configdrive);
    const meta = JSON.parse(isoFile(iso, '/openstack/latest/meta_data.json')) as Record<string, unknown>;
    assert.equal(meta.uuid, INSTANCE);
    assert.equal(meta.name, 'web-1');
    assert.equal(meta.hostname, 'web-1.novalocal');
    assert.equal(meta.admin_pass, 'secret');
    assert.deepEqual(meta.public_keys, { default: SSH_KEY });
    assert.deepEqual(meta.files, [{ path: '/etc/motd', content_path: '/content/0000' }]);
    assert.equal(isoFile(iso, '/openstack/content/0000'), 'hello');
    assert.equal(isoFile(iso, '/openstack/latest/user_data'), '#cloud-config\nhostname: web-1\n');
    assert.equal(isoFile(iso, '/ec2/latest/user-data'), '#cloud-config\nhostname: web-1\n');
    const network = JSON.parse(isoFile(iso, '/openstack/latest/network_data.json')) as { links: Array<Record<string, unknown>>; networks: Array<Record<string, unknown>> };
    // The VIF landed on the node's port, so the link carries the port's MAC, as Nova writes it.
    assert.deepEqual(network.links, [{ id: 'interface0', vif_id: VIF, type: 'phy', mtu: 1500, ethernet_mac_address: PORT_MAC }]);
    assert.equal(network.networks[0].ip_address, '192.0.2.10');
    assert.equal(network.networks[0].netmask, '255.255.255.0');
    assert.deepEqual(await client.listVifs(node), [VIF]);
  });

  it('refuses a second spawn on the same node as Nova does', async () => {
    const other = '6a1b2c3d-0000-4000-8000-00000000ffff';
    const err = await driver.spawn({ ...request(), instanceUuid: other }).catch((e: unknown) => e);
    assert.ok(err instanceof ComputeResourcesUnavailable, String(err));
    assert.equal(err.message, `Insufficient compute resources: Chosen ironic node ${node} is not available.`);
    // A scheduler race: the node was read before the first instance landed; Ironic answers 409.
    const stale = { ...(await client.getNode(node)), instance_uuid: null };
    const conflict = await driver.reserve(stale, other).catch((e: unknown) => e);
    assert.ok(conflict instanceof NodeAlreadyAssociatedError, String(conflict));
    assert.equal(conflict.message, `Failed to reserve node ${node} when provisioning the instance ${other}`);
    assert.match(conflict.faultstring, new RegExp(INSTANCE));
    const n = await client.getNode(node);
    assert.equal(n.instance_uuid, INSTANCE);
    assert.equal(n.provision_state, 'active');
  });

  it('lists the instance, reports its node reserved, and its power state as Nova maps it', async () => {
    assert.deepEqual((await driver.listInstances()).map((n) => n.instance_uuid), [INSTANCE]);
    assert.equal(ComputeDriver.isSchedulable((await driver.getAvailableNodes())[0]), false);
    const r = await driver.getAvailableResource(node);
    assert.equal(r.resource.hypervisor_type, 'ironic');
    assert.deepEqual(r.resource.supported_instances, [['x86_64', 'baremetal', 'hvm']]);
    assert.deepEqual(r.inventory, { CUSTOM_BAREMETAL: { total: 1, reserved: 1, min_unit: 1, max_unit: 1, step_size: 1, allocation_ratio: 1.0 } });
    assert.deepEqual(r.traits, ['CUSTOM_GOLD']);
    // fake-hardware's deploy leaves the power as it found it (off).
    assert.deepEqual(await driver.getInfo(INSTANCE), { node, powerState: 'power off', state: 4, stateName: 'SHUTDOWN' });
    await driver.powerOn(INSTANCE);
    assert.deepEqual(await driver.getInfo(INSTANCE), { node, powerState: 'power on', state: 1, stateName: 'RUNNING' });
    assert.equal(await driver.getInfo('6a1b2c3d-0000-4000-8000-000000000000'), null);
  });

  it('power cycles and reboots through the power API', async () => {
    const off = await driver.powerOff(INSTANCE, 5);
    assert.equal(off.node.power_state, 'power off');
    assert.equal((await driver.getInfo(INSTANCE))?.stateName, 'SHUTDOWN');
    assert.equal((await driver.powerOn(INSTANCE)).power_state, 'power on');
    assert.equal((await driver.powerOff(INSTANCE)).soft, false);
    await driver.powerOn(INSTANCE);
    const soft = await driver.reboot(INSTANCE, 'soft');
    assert.equal(soft.node.power_state, 'power on');
    assert.equal((await driver.reboot(INSTANCE, 'hard')).hard, true);
  });

  it('attaches and detaches an interface, and hands out the console after a reset', async () => {
    const extra = '7d9c0f00-1111-4222-8333-000000000002';
    await client.request('POST', '/v1/ports', { node_uuid: node, address: '52:54:00:00:00:22' });
    assert.deepEqual((await driver.attachInterface(INSTANCE, extra)).sort(), [VIF, extra].sort());
    assert.deepEqual(await driver.detachInterface(INSTANCE, extra), [VIF]);
    const disabled = await driver.getConsole(INSTANCE).catch((e: unknown) => e);
    assert.ok(disabled instanceof ConsoleUnavailableError, String(disabled));
    const c = await driver.getConsole(INSTANCE, true);
    assert.equal(c.node, node);
    assert.equal((await client.getConsole(node)).console_enabled, true);
    assert.equal((await driver.getConsole(INSTANCE)).node, node, 'an enabled console is reset and handed out');
    await client.setConsoleMode(node, false);
  });

  it('rescues and unrescues the instance', async () => {
    assert.equal((await driver.rescue(INSTANCE, 'rescue-pw')).provision_state, 'rescue');
    assert.equal((await driver.unrescue(INSTANCE)).provision_state, 'active');
    const err = await driver.unrescue('6a1b2c3d-0000-4000-8000-000000000000').catch((e: unknown) => e);
    assert.ok(err instanceof UnrescueFailedError);
  });

  it('rebuilds with a new image and config drive, back to active', async () => {
    const n = await driver.rebuild({ ...request(), image: 'http://127.0.0.1:1/v2.qcow2', name: 'web-1b' }, true);
    assert.equal(n.provision_state, 'active');
    const info = (await client.getNode(node)).instance_info;
    assert.equal(info.image_source, 'http://127.0.0.1:1/v2.qcow2');
    assert.equal(info.preserve_ephemeral, 'True');
    const row = await server.db.knex('nodes').where({ uuid: node }).first();
    const iso = decodeConfigDrive((JSON.parse(row.instance_info as string) as { configdrive: string }).configdrive);
    assert.equal((JSON.parse(isoFile(iso, '/openstack/latest/meta_data.json')) as { name: string }).name, 'web-1b');
  });

  it('destroys: available, instance_uuid, instance_info, VIFs and volume targets cleared', async () => {
    await driver.powerOff(INSTANCE);
    await client.request('POST', '/v1/volume/targets', { node_uuid: node, volume_type: 'iscsi', volume_id: 'vol-1', boot_index: 0 });
    const n = await driver.destroy(INSTANCE, [VIF]);
    assert.deepEqual(await client.listVolumeTargets(node), [], "Nova's _cleanup_volume_target_info removes them");
    assert.ok(n);
    assert.equal(n.provision_state, 'available');
    assert.equal(n.instance_uuid, null);
    assert.deepEqual(n.instance_info, {});
    assert.deepEqual(await client.listVifs(node), []);
    assert.deepEqual(await driver.listInstances(), []);
    assert.equal(await driver.destroy(INSTANCE), null, 'destroying a gone instance succeeds, as in Nova');
  });

  it('decodes Ironic errors into status and faultstring', async () => {
    const err = await client.getNode('no-such-node').catch((e: unknown) => e);
    assert.ok(err instanceof IronicApiError);
    assert.equal(err.status, 404);
    assert.match(err.faultstring, /no-such-node/);
  });
});
