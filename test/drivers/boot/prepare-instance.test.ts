/** The boot interface on its own, with a recording management interface: local boot, takeover, rescue. */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Config } from '../../../src/conf/config';
import type { DriverTask } from '../../../src/drivers/base';
import { createPxeBoot } from '../../../src/drivers/boot/pxe';
import type { NodeRecord, PortRecord } from '../../../src/db/models';

let dir: string;

const exists = (p: string) => fsp.lstat(p).then(() => true, () => false);
let conf: Config;

before(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'pxe-unit-'));
  for (const f of ['k', 'r', 'rk', 'rr']) await fsp.writeFile(path.join(dir, f), `${f} bytes`);
  conf = new Config([], {
    pxe: { tftp_root: path.join(dir, 'tftp'), tftp_master_path: path.join(dir, 'master'), tftp_server: '192.0.2.1' },
    deploy: { http_root: path.join(dir, 'http'), http_url: 'http://192.0.2.1:8080' },
    dhcp: { dhcp_provider: 'none' },
  });
});
after(async () => {
  await fsp.rm(dir, { recursive: true, force: true });
});

interface Recorded {
  task: DriverTask;
  bootDevices: Array<[string, boolean]>;
}

function makeTask(node: Partial<NodeRecord>): Recorded {
  const bootDevices: Array<[string, boolean]> = [];
  const record = {
    uuid: '6a1b3c5d-0000-4000-8000-000000000001', provision_state: 'deploying', deploy_interface: 'direct',
    driver_info: { deploy_kernel: `file://${dir}/k`, deploy_ramdisk: `file://${dir}/r`, rescue_kernel: `file://${dir}/rk`, rescue_ramdisk: `file://${dir}/rr` },
    instance_info: { image_source: 'http://example.com/disk.img' }, driver_internal_info: {},
    properties: { capabilities: 'boot_mode:bios' },
    ...node,
  } as unknown as NodeRecord;
  const port = { address: '52:54:00:00:aa:01', pxe_enabled: true, extra: {} } as unknown as PortRecord;
  const driver = {
    management: {
      validate: async () => undefined,
      setBootDevice: async (_t: DriverTask, device: string, persistent: boolean) => void bootDevices.push([device, persistent]),
    },
    storage: { shouldWriteImage: () => true },
  };
  const task = {
    ctx: { conf, db: undefined }, node: record, ports: [port], portgroups: [], driver, shared: false,
    saveNode: async () => undefined,
  } as unknown as DriverTask;
  return { task, bootDevices };
}

const link = () => path.join(dir, 'tftp', 'pxelinux.cfg', '01-52-54-00-00-aa-01');

test('whole-disk image: prepareInstance removes the network boot config and boots from disk persistently', async () => {
  const boot = createPxeBoot();
  const { task, bootDevices } = makeTask({});
  await boot.prepareRamdisk(task, {}, 'deploy');
  assert.match(await fsp.readFile(link(), 'utf8'), /^default deploy$/m);
  assert.deepEqual(bootDevices, [['pxe', false]]);
  await boot.prepareInstance(task);
  assert.equal(await exists(link()), false);
  assert.equal(await exists(path.join(dir, 'tftp', task.node.uuid)), false);
  assert.deepEqual(bootDevices, [['pxe', false], ['disk', true]]);
});

test('takeover of an active node rewrites its boot config but leaves the boot device alone', async () => {
  const boot = createPxeBoot();
  const { task, bootDevices } = makeTask({
    provision_state: 'active',
    instance_info: { image_source: 'http://example.com/p.img', kernel: `file://${dir}/k`, ramdisk: `file://${dir}/r` },
    driver_internal_info: { root_uuid_or_disk_id: 'abcd-1234' },
  });
  await boot.prepareInstance(task);
  const config = await fsp.readFile(link(), 'utf8');
  assert.match(config, /^default boot_partition$/m);
  assert.match(config, /root=UUID=abcd-1234 ro/);
  assert.deepEqual(bootDevices, []);
  await boot.cleanUpInstance(task);
  assert.equal(await exists(link()), false);
});

test('partition image without a reported root UUID: no switch, no boot device change', async () => {
  const boot = createPxeBoot();
  const { task, bootDevices } = makeTask({
    instance_info: { image_source: 'http://example.com/p.img', kernel: `file://${dir}/k`, ramdisk: `file://${dir}/r` },
  });
  await boot.prepareRamdisk(task, {}, 'deploy');
  await boot.prepareInstance(task);
  assert.match(await fsp.readFile(link(), 'utf8'), /^default deploy$/m);
  assert.deepEqual(bootDevices, [['pxe', false]]);
  await boot.cleanUpRamdisk(task, 'deploy');
  assert.equal(await exists(link()), false);
});

test('rescue: the rescue kernel/ramdisk are placed and named in the config', async () => {
  const boot = createPxeBoot();
  const { task } = makeTask({ provision_state: 'rescuing' });
  await boot.prepareRamdisk(task, { 'ipa-api-url': 'http://192.0.2.1:6385' }, 'rescue');
  const config = await fsp.readFile(link(), 'utf8');
  assert.match(config, new RegExp(`^kernel ${task.node.uuid}/rescue_kernel$`, 'm'));
  assert.match(config, /ipa-api-url=http:\/\/192\.0\.2\.1:6385/);
  assert.equal(await fsp.readFile(path.join(dir, 'tftp', task.node.uuid, 'rescue_ramdisk'), 'utf8'), 'rr bytes');
  await boot.cleanUpRamdisk(task, 'rescue');
  assert.equal(await exists(path.join(dir, 'tftp', task.node.uuid)), false);
});
