/**
 * The compute shim against a real ironic-ts (fake-hardware): spawn takes an available node to
 * active with Nova's instance_uuid/instance_info and a config drive; a second spawn is a typed
 * conflict; destroy brings the node back to available with the instance cleared.
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
import { IronicApiError, NodeAlreadyAssociatedError, UnrescueFailedError } from '../../src/compute/errors';
import { decodeConfigDrive } from '../../src/images/configdrive';
import type { SpawnRequest } from '../../src/compute/types';

const INSTANCE = '6a1b2c3d-0000-4000-8000-00000000abcd';
const SSH_KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFakeKeyForTests test@compute';

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
    driver: 'fake-hardware', name, properties: { cpus: 4, memory_mb: 8192, local_gb: 40 },
  });
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
    server = await startTestServer();
    client = new IronicClient({ url: server.url });
    driver = new ComputeDriver(client, { intervalMs: 25, timeoutMs: 20000, onProgress: (e) => phases.push(e.phase) });
    node = await availableNode(client, 'bm-0');
  });
  after(async () => server.stop());

  const request = (): SpawnRequest => ({
    node, instanceUuid: INSTANCE, name: 'web-1', image: 'http://127.0.0.1:1/image.qcow2',
    flavor: { name: 'baremetal', vcpus: 4, memoryMb: 8192, rootGb: 30, capabilities: { boot_mode: 'uefi' }, traits: ['CUSTOM_GOLD'] },
    sshKey: SSH_KEY, userData: '#cloud-config\nhostname: web-1\n', adminPass: 'secret',
    files: [{ path: '/etc/motd', contents: 'hello' }],
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
    assert.equal(info.capabilities, '{"boot_mode":"uefi"}');
    assert.deepEqual(info.traits, ['CUSTOM_GOLD']);

    const row = await server.db.knex('nodes').where({ uuid: node }).first();
    const stored = JSON.parse(row.instance_info as string) as { configdrive: string };
    const iso = decodeConfigDrive(stored.configdrive);
    const meta = JSON.parse(isoFile(iso, '/openstack/latest/meta_data.json')) as Record<string, unknown>;
    assert.equal(meta.uuid, INSTANCE);
    assert.equal(meta.name, 'web-1');
    assert.equal(meta.hostname, 'web-1');
    assert.equal(meta.admin_pass, 'secret');
    assert.deepEqual(meta.public_keys, { default: SSH_KEY });
    assert.equal(isoFile(iso, '/openstack/latest/user_data'), '#cloud-config\nhostname: web-1\n');
  });

  it('refuses a second spawn on the same node with a typed conflict', async () => {
    const err = await driver.spawn({ ...request(), instanceUuid: '6a1b2c3d-0000-4000-8000-00000000ffff' }).catch((e: unknown) => e);
    assert.ok(err instanceof NodeAlreadyAssociatedError, String(err));
    assert.match(err.faultstring, /already associated|instance/i);
    assert.equal((await client.getNode(node)).instance_uuid, INSTANCE);
  });

  it('lists the instance', async () => {
    assert.deepEqual((await driver.listInstances()).map((n) => n.instance_uuid), [INSTANCE]);
    assert.equal(ComputeDriver.isSchedulable((await driver.getAvailableNodes())[0]), false);
  });

  it('power cycles and reboots through the power API', async () => {
    assert.equal((await driver.powerOff(node)).power_state, 'power off');
    assert.equal((await driver.powerOn(node)).power_state, 'power on');
    assert.equal((await driver.reboot(node, 'soft')).power_state, 'power on');
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

  it('destroys: available, instance_uuid and instance_info cleared', async () => {
    const n = await driver.destroy(node);
    assert.equal(n.provision_state, 'available');
    assert.equal(n.instance_uuid, null);
    assert.deepEqual(n.instance_info, {});
    assert.deepEqual(await driver.listInstances(), []);
  });

  it('decodes Ironic errors into status and faultstring', async () => {
    const err = await client.getNode('no-such-node').catch((e: unknown) => e);
    assert.ok(err instanceof IronicApiError);
    assert.equal(err.status, 404);
    assert.match(err.faultstring, /no-such-node/);
  });
});
