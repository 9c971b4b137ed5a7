/**
 * The built `ironic-compute` CLI against a fresh server (ironic-ts, or the reference Ironic with
 * IRONIC_TS_COMPAT_TARGET=reference): boot an available node to active, list it, delete it.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { startTarget, Target } from '../support/target';
import { IronicClient, IronicNode } from '../../src/compute/client';

const run = promisify(execFile);
const CLI = path.resolve(__dirname, '..', '..', 'src', 'cmd', 'ironic-compute.js');

async function cli(url: string, ...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, '--url', url, '--interval', '0.1', '--timeout', '40', ...args]);
    return { stdout, stderr, code: 0 };
  } catch (err) {
    const e = err as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

async function waitState(client: IronicClient, node: string, state: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const n = await client.getNode(node);
    if (n.provision_state === state && n.target_provision_state === null) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`node ${node} never reached ${state}`);
}

describe('ironic-compute CLI', () => {
  let target: Target;
  let client: IronicClient;
  let dir: string;
  let node: string;

  before(async () => {
    target = await startTarget();
    client = new IronicClient({ url: target.url });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'compute-cli-'));
    const created = await client.request<IronicNode>('POST', '/v1/nodes', {
      driver: 'fake-hardware', name: 'cli-node', properties: { cpus: 2, memory_mb: 4096, local_gb: 20 },
    });
    node = created.uuid;
    await client.setProvisionState(node, { target: 'manage' });
    await waitState(client, node, 'manageable');
    await client.setProvisionState(node, { target: 'provide' });
    await waitState(client, node, 'available');
  });
  after(async () => {
    await target.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('boots a node to active with progress lines', async () => {
    const key = path.join(dir, 'id.pub');
    fs.writeFileSync(key, 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAITestKey cli@test\n');
    const userData = path.join(dir, 'user-data');
    fs.writeFileSync(userData, '#cloud-config\n');
    const r = await cli(target.url, 'boot', '--node', 'cli-node', '--image', 'http://127.0.0.1:1/img.qcow2',
      '--ssh-key', key, '--user-data', userData, '--name', 'vm-1', '--instance-uuid', '0f0e0d0c-1111-4222-8333-444455556666');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`^boot: instance 0f0e0d0c-1111-4222-8333-444455556666 \\(vm-1\\) on node ${node}$`, 'm'));
    assert.match(r.stdout, /^deploying: node \S+ provision_state=\S+/m);
    assert.match(r.stdout, new RegExp(`^active: node ${node} instance 0f0e0d0c-1111-4222-8333-444455556666$`, 'm'));
    const n = await client.getNode(node);
    assert.equal(n.provision_state, 'active');
    assert.equal(n.instance_uuid, '0f0e0d0c-1111-4222-8333-444455556666');
    assert.equal(n.instance_info.display_name, 'vm-1');
    assert.equal(n.instance_info.image_source, 'http://127.0.0.1:1/img.qcow2');
  });

  it('lists the node with its instance', async () => {
    const r = await cli(target.url, 'list');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`^${node}\\tcli-node\\t0f0e0d0c-1111-4222-8333-444455556666\\tactive\\t`, 'm'));
  });

  it('fails a second boot with the conflict on stderr', async () => {
    const r = await cli(target.url, 'boot', '--node', node, '--image', 'http://127.0.0.1:1/other.qcow2');
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^error: NodeAlreadyAssociatedError: node \S+ already has an instance/m);
  });

  it('deletes the instance back to available', async () => {
    const r = await cli(target.url, 'delete', '--node', 'cli-node');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`^deleted: node ${node} provision_state=available$`, 'm'));
    const n = await client.getNode(node);
    assert.equal(n.instance_uuid, null);
    assert.deepEqual(n.instance_info, {});
  });

  it('rejects a missing command', async () => {
    const r = await cli(target.url);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^error: a command is required/m);
  });
});
