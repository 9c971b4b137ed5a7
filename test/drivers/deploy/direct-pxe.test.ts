import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startAgentEmulator } from '../../../src/emulators/agent/server';
import { createNode, exists, makeAvailable, provision, startBootEnv, waitForState, type BootEnv } from '../boot/support';
import { buildExt4Image, ext4Uuid, sha256File } from './agent-support';

let env: BootEnv;
let imagesDir: string;

before(async () => {
  imagesDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'direct-pxe-images-'));
  env = await startBootEnv({
    DEFAULT: { enabled_deploy_interfaces: 'fake,direct', enabled_management_interfaces: 'fake,noop' },
    pxe: { images_path: path.join(imagesDir, 'images'), instance_master_path: path.join(imagesDir, 'master') },
  });
});
after(async () => {
  await env.stop();
  await fsp.rm(imagesDir, { recursive: true, force: true });
});

async function waitForProvisionState(uuid: string, state: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const r = await env.server.request('GET', `/v1/nodes/${uuid}`, { version: '1.82' });
    if (r.json.provision_state === state) return;
    if (Date.now() > deadline) assert.fail(`node ${uuid} never reached ${state} (now ${r.json.provision_state}: ${r.json.last_error})`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('direct deploy with pxe boot: deploy label while the agent runs, boot label with its root UUID after', async () => {
  const image = await buildExt4Image(env.dir, 'partition.img');
  const mac = '52:54:00:cc:00:01';
  const uuid = await createNode(env, {
    boot_interface: 'pxe', deploy_interface: 'direct', management_interface: 'noop',
    driver_info: {
      deploy_kernel: `file://${env.images.deployKernel}`, deploy_ramdisk: `file://${env.images.deployRamdisk}`,
      // Fake power never sees the agent's soft power off: sync and power off out of band at once.
      deploy_forces_oob_reboot: true,
    },
    instance_info: {
      image_source: `file://${image}`, image_os_hash_algo: 'sha256', image_os_hash_value: await sha256File(image),
      kernel: `file://${env.images.kernel}`, ramdisk: `file://${env.images.ramdisk}`,
    },
    properties: { capabilities: 'boot_mode:bios' },
  }, [mac]);
  await makeAvailable(env, uuid);
  const configPath = path.join(env.tftpRoot, uuid, 'config');
  await provision(env, uuid, 'active');
  // No agent yet: the node waits for its ramdisk with the deploy label as default.
  await waitForProvisionState(uuid, 'wait call-back');
  const waiting = await fsp.readFile(configPath, 'utf8');
  assert.match(waiting, /^default deploy$/m);
  assert.match(waiting, new RegExp(`initrd=${uuid}/deploy_ramdisk .*ipa-api-url=http://\\S+`));

  const disk = path.join(env.dir, 'pxe-node.disk');
  const agent = await startAgentEmulator({
    ironicUrl: env.server.url, macs: [mac], heartbeatIntervalMs: 250, disks: { root: disk, configdrive: `${disk}.cd` },
  });
  try {
    const active = await waitForState(env, uuid, 'active');
    assert.equal(active.last_error, null);
    const rootUuid = await ext4Uuid(disk);
    assert.equal(active.driver_internal_info.root_uuid_or_disk_id, rootUuid);
    const config = await fsp.readFile(configPath, 'utf8');
    assert.match(config, /^default boot_partition$/m);
    assert.match(config, new RegExp(`^append initrd=${uuid}/ramdisk root=UUID=${rootUuid} ro`, 'm'));
  } finally {
    await agent.stop();
  }
  await provision(env, uuid, 'deleted');
  await waitForState(env, uuid, 'available');
  assert.equal(await exists(path.join(env.tftpRoot, uuid)), false);
});
