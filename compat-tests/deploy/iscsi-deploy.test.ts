/**
 * The iscsi deploy against Debian's tgtd and QEMU's userspace initiator: ironic-ts writes the PXE
 * config with the design's deploy entry, the test plays the deploy ramdisk's part (tgtd exports a
 * disk file under the IQN from the kernel line, a POST of i/k/a/n to the callback port, a listener
 * on the ramdisk port), and the written disk is read back: the msdos label, the root partition's
 * bytes and UUID, swap, the configdrive's meta_data.json, and the PXE config switched to `boot`.
 * Bad callbacks are refused and leave the deploy waiting; a vanished target fails it cleanly.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { promises as fsp } from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as path from 'node:path';
import { buildExt4Image, run, sha256File } from '../../test/drivers/deploy/agent-support';
import { startTgt, type TgtTarget } from '../support/tgt-target';
import { freePort, startIronicTs, type Target } from '../support/target';
import { cliNodeClient, type Row } from '../support/cli-node';

let target: Target;
let tgt: TgtTarget;
let dir: string;
let helperPort: number;
let ramdiskPort: number;
const cli = cliNodeClient(() => target.url);
const MIB = 1024 * 1024;

before(async () => {
  dir = await fsp.mkdtemp('/tmp/iscsi-deploy-');
  tgt = await startTgt();
  helperPort = await freePort();
  ramdiskPort = await freePort();
  for (const f of ['deploy.kernel', 'deploy.initramfs', 'instance.kernel', 'instance.initramfs']) {
    await fsp.writeFile(path.join(dir, f), `${f}\n`);
  }
  await fsp.mkdir(path.join(dir, 'ironic'));
  target = await startIronicTs(path.join(dir, 'ironic'), await freePort(), ironicConf(tgt.port));
});

function ironicConf(portalPort: number, iscsi: string[] = []): string {
  return [
    'enabled_boot_interfaces = fake,pxe',
    'enabled_deploy_interfaces = fake,iscsi',
    'enabled_management_interfaces = fake',
    '[deploy]', 'default_boot_mode = bios',
    '[pxe]', `tftp_root = ${dir}/tftpboot`, `images_path = ${dir}/images`, `instance_master_path = ${dir}/master`,
    `tftp_master_path = ${dir}/tftp-master`,
    '[iscsi]', `portal_port = ${portalPort}`, 'deploy_helper_host = 127.0.0.1', `deploy_helper_port = ${helperPort}`,
    `ramdisk_port = ${ramdiskPort}`, 'write_timeout = 60', ...iscsi,
    '[conductor]', 'deploy_callback_timeout = 0',
  ].join('\n');
}

after(async () => {
  await target?.stop();
  await tgt?.stop();
  await fsp.rm(dir, { recursive: true, force: true });
});

async function enroll(name: string, mac: string, image: string, extra: Row = {}): Promise<string> {
  const node = await cli.api('POST', '/v1/nodes', {
    name, driver: 'fake-hardware', boot_interface: 'pxe', deploy_interface: 'iscsi',
    driver_info: { deploy_kernel: path.join(dir, 'deploy.kernel'), deploy_ramdisk: path.join(dir, 'deploy.initramfs') },
    instance_info: {
      image_source: `file://${image}`, image_os_hash_algo: 'sha256', image_os_hash_value: await sha256File(image),
      kernel: path.join(dir, 'instance.kernel'), ramdisk: path.join(dir, 'instance.initramfs'), root_gb: 1, ...extra,
    },
  });
  const uuid = String(node.uuid);
  await cli.api('POST', '/v1/ports', { address: mac, node_uuid: uuid });
  await cli.manage(uuid);
  await cli.api('PUT', `/v1/nodes/${uuid}/states/provision`, { target: 'provide' });
  await cli.waitNode(uuid, (n) => n.provision_state === 'available', 'available');
  return uuid;
}

/** What the PXE config's deploy entry tells the ramdisk. */
async function kernelArgs(uuid: string): Promise<Map<string, string>> {
  const config = await fsp.readFile(path.join(dir, 'tftpboot', uuid, 'config'), 'utf8');
  const append = config.split('\n').find((l) => l.startsWith('append') && l.includes('deployment_id='));
  assert.ok(append, config);
  return new Map(append.split(/\s+/).filter((w) => w.includes('=')).map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)]));
}

async function deployAndWait(uuid: string, body: Row = {}): Promise<Map<string, string>> {
  await cli.api('PUT', `/v1/nodes/${uuid}/states/provision`, { target: 'active', ...body });
  await cli.waitNode(uuid, (n) => n.provision_state === 'wait call-back', 'wait call-back');
  return kernelArgs(uuid);
}

/**
 * The ramdisk's POST, from `from` (another loopback address keeps a flood's rate limit away from
 * the other tests); a connection the server drops reads as status 0.
 */
function callback(form: Record<string, string>, from = '127.0.0.1'): Promise<{ status: number; text: string }> {
  const body = new URLSearchParams(form).toString();
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port: helperPort, method: 'POST', localAddress: from,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => { text += d.toString(); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: text.trim() }));
      res.on('error', () => resolve({ status: 0, text }));
    });
    req.on('error', () => resolve({ status: 0, text: '' }));
    req.end(body);
  });
}

/** The ramdisk's listener for "done". */
function ramdiskListener(): { done: Promise<string>; close(): void } {
  const server = net.createServer();
  const done = new Promise<string>((resolve) => {
    server.on('connection', (s) => {
      let text = '';
      s.on('data', (d) => { text += d.toString(); });
      s.on('end', () => resolve(text));
    });
  });
  server.listen(ramdiskPort, '127.0.0.1');
  return { done, close: () => server.close() };
}

async function sfdiskJson(file: string): Promise<Array<{ start: number; size: number; type: string }>> {
  const out = (await run('sfdisk', ['-J', file])).stdout;
  return (JSON.parse(out).partitiontable.partitions as Array<{ start: number; size: number; type: string }>);
}

async function slice(file: string, offset: number, size: number, out: string): Promise<string> {
  const handle = await fsp.open(file, 'r');
  const buf = Buffer.alloc(size);
  await handle.read(buf, 0, size, offset);
  await handle.close();
  await fsp.writeFile(out, buf);
  return out;
}

test('a partition image written over iSCSI: label, root, swap, configdrive, extra_data, and the switch to boot', async () => {
  const image = await buildExt4Image(dir, 'root.img');
  const uuid = await enroll('iscsi-1', '52:54:00:15:00:01', image, { swap_mb: 64 });
  const disk = path.join(dir, 'disk-1.img');
  await fsp.writeFile(disk, '');
  await fsp.truncate(disk, 1200 * MIB);
  const args = await deployAndWait(uuid, {
    configdrive: { meta_data: { hostname: 'iscsi-1.example' } },
  });
  assert.equal(args.get('iscsi_target_iqn'), `iqn.2008-10.org.openstack:${uuid}`);
  assert.equal(args.get('deployment_id'), uuid);
  assert.equal(args.get('disk'), 'cciss/c0d0,sda,hda,vda');
  assert.match(args.get('ironic_api_url') ?? '', /^http:\/\/127\.0\.0\.1:\d+$/);
  const key = args.get('deployment_key') ?? '';
  assert.match(key, /^[0-9a-f]{48}$/);
  const config = await fsp.readFile(path.join(dir, 'tftpboot', uuid, 'config'), 'utf8');
  assert.match(config, /^default deploy$/m);
  assert.match(config, /^ipappend 3$/m);

  await tgt.exportDisk(args.get('iscsi_target_iqn')!, disk);
  const listener = ramdiskListener();
  try {
    const accepted = await callback({ i: uuid, k: key, a: '127.0.0.1', n: args.get('iscsi_target_iqn')! });
    assert.equal(accepted.status, 202, accepted.text);
    const node = await cli.waitNode(uuid, (n) => n.provision_state === 'active', 'active', 120_000);
    assert.equal(node.last_error, null);
    assert.equal(await listener.done, 'done');
  } finally {
    listener.close();
    await tgt.removeDisk(args.get('iscsi_target_iqn')!);
  }

  // ephemeral (none), swap, configdrive, then root last, from 1 MiB on.
  const parts = await sfdiskJson(disk);
  assert.deepEqual(parts.map((p) => p.type), ['82', '83', '83']);
  assert.equal(parts[0].start, 2048);
  assert.equal(parts[0].size, 64 * 2048);
  const root = parts[2];
  assert.equal(root.size, 1024 * 2048, 'root_gb 1');
  const imageBytes = (await fsp.stat(image)).size;
  const written = await slice(disk, root.start * 512, imageBytes, path.join(dir, 'root-back.img'));
  const uuidOnDisk = (await run('blkid', ['-s', 'UUID', '-o', 'value', written])).stdout.trim();
  assert.equal(uuidOnDisk, (await run('blkid', ['-s', 'UUID', '-o', 'value', image])).stdout.trim());
  const swap = await slice(disk, parts[0].start * 512, 64 * MIB, path.join(dir, 'swap-back.img'));
  const swapFs = (await run('blkid', ['-o', 'export', swap])).stdout;
  assert.match(swapFs, /^TYPE=swap$/m);
  assert.match(swapFs, /^LABEL=swap1$/m);
  const iso = await slice(disk, parts[1].start * 512, parts[1].size * 512, path.join(dir, 'cd-back.iso'));
  const meta = path.join(dir, 'meta.json');
  await run('xorriso', ['-osirrox', 'on', '-indev', iso, '-extract', '/openstack/latest/meta_data.json', meta]);
  const metaData = JSON.parse(await fsp.readFile(meta, 'utf8')) as Row;
  assert.equal(metaData.uuid, uuid);
  assert.equal(metaData.hostname, 'iscsi-1.example');

  const switched = await fsp.readFile(path.join(dir, 'tftpboot', uuid, 'config'), 'utf8');
  assert.match(switched, /^default boot$/m);
  assert.ok(switched.includes(`root=UUID=${uuidOnDisk} ro`), switched);
  const shown = await cli.api('GET', `/v1/nodes/${uuid}`);
  const internal = shown.driver_internal_info as Row;
  assert.equal(internal.root_uuid_or_disk_id, uuidOnDisk);
  assert.ok(!Object.hasOwn(internal, 'iscsi_key_digest'), 'the key is spent');
  const log = await fsp.readFile(path.join(dir, 'ironic', 'stdout.log'), 'utf8');
  assert.ok(!log.includes(key), 'the deployment key never reaches the log');

  await cli.api('PUT', `/v1/nodes/${uuid}/states/provision`, { target: 'deleted' });
  await cli.waitNode(uuid, (n) => n.provision_state === 'available', 'undeployed');
  await assert.rejects(fsp.stat(path.join(dir, 'tftpboot', uuid)), 'the PXE config is gone after undeploy');
});

test('refused callbacks leave the deploy waiting: wrong key, wrong id, wrong IQN, garbage, not waiting, a flood', async () => {
  const image = await buildExt4Image(dir, 'root2.img');
  const uuid = await enroll('iscsi-2', '52:54:00:15:00:02', image);
  const args = await deployAndWait(uuid);
  const iqn = args.get('iscsi_target_iqn')!;
  assert.deepEqual(await callback({ i: uuid, k: 'f'.repeat(48), a: '127.0.0.1', n: iqn }), { status: 403, text: 'wrong deployment key' });
  assert.equal((await callback({ i: '0c5b5a38-0000-4000-8000-000000000000', k: args.get('deployment_key')!, a: '127.0.0.1', n: iqn })).status, 404);
  assert.equal((await callback({ i: 'not-a-uuid', k: 'x', a: '127.0.0.1', n: iqn })).status, 404);
  assert.equal((await callback({ i: uuid, k: args.get('deployment_key')!, a: '127.0.0.1', n: 'iqn.2000-01.evil:x' })).status, 400);
  assert.deepEqual(await callback({ i: uuid, k: 'x', a: 'not an address', n: iqn }), { status: 400, text: 'a is not an IP address' });
  assert.equal((await callback({ i: uuid })).status, 400);
  const garbage = await new Promise<string>((resolve) => {
    const s = net.connect(helperPort, '127.0.0.1', () => s.end('\x00\xff garbage \r\n\r\n'));
    let text = '';
    s.on('data', (d) => { text += d.toString('latin1'); });
    s.on('close', () => resolve(text));
    s.on('error', () => resolve(text));
  });
  assert.ok(!garbage.includes('202'), garbage);
  // The API answers while the flood is on, not only after it.
  const [flood, listed] = await Promise.all([
    Promise.all(Array.from({ length: 150 }, () => callback({ i: uuid, k: 'nope', a: '127.0.0.1', n: iqn }, '127.0.0.2'))),
    cli.api('GET', '/v1/nodes'),
  ]);
  assert.ok(flood.some((r) => r.status === 429), 'a flood from one address is rate limited');
  assert.ok(flood.every((r) => r.status !== 202), 'no flooded call is admitted');
  assert.equal(listed.nodes instanceof Array, true, 'the API answers during the flood');
  const node = await cli.api('GET', `/v1/nodes/${uuid}`);
  assert.equal(node.provision_state, 'wait call-back');
  assert.equal(node.last_error, null);
  const log = await fsp.readFile(path.join(dir, 'ironic', 'stdout.log'), 'utf8');
  assert.match(log, /Refused iSCSI deploy callback from 127\.0\.0\.1 for deployment .*: wrong deployment key/);
  assert.match(log, /Refused iSCSI deploy callback from 127\.0\.0\.1 for deployment "0c5b5a38-0000-4000-8000-000000000000": unknown deployment/);

  await cli.api('PUT', `/v1/nodes/${uuid}/states/provision`, { target: 'deleted' });
  await cli.waitNode(uuid, (n) => n.provision_state === 'available', 'deploy aborted');
});

/** Deploys, calls back with the right key, and returns the node once the deploy has failed. */
async function failedDeploy(name: string, mac: string, beforeCallback?: (iqn: string) => Promise<void>): Promise<Row> {
  const image = await buildExt4Image(dir, `${name}.img`);
  const uuid = await enroll(name, mac, image);
  const args = await deployAndWait(uuid);
  await beforeCallback?.(args.get('iscsi_target_iqn')!);
  const accepted = await callback({ i: uuid, k: args.get('deployment_key')!, a: '127.0.0.1', n: args.get('iscsi_target_iqn')! });
  assert.equal(accepted.status, 202);
  const node = await cli.waitNode(uuid, (n) => n.provision_state === 'deploy failed', 'deploy failed', 120_000);
  // Nothing is left stuck: the node can be torn down and used again.
  await cli.api('PUT', `/v1/nodes/${uuid}/states/provision`, { target: 'deleted' });
  await cli.waitNode(uuid, (n) => n.provision_state === 'available', 'available again');
  return node;
}

test('a target that is not there fails the deploy with a clear last_error', async () => {
  const node = await failedDeploy('iscsi-3', '52:54:00:15:00:03');
  assert.match(String(node.last_error), new RegExp(`^Deploy step deploy\\.write_image failed: Deploy to 127\\.0\\.0\\.1 failed ` +
    `for node ${String(node.uuid)}: target iqn\\.2008-10\\.org\\.openstack:${String(node.uuid)} lun 1 at 127\\.0\\.0\\.1:\\d+: iSCSI: `));
});

test('a portal that answers garbage fails the deploy with a clear last_error', async () => {
  await tgt.stop();
  const garbage = net.createServer((s) => { s.on('error', () => undefined); s.end(Buffer.alloc(4096, 0xa5)); });
  garbage.listen(tgt.port, '127.0.0.1');
  try {
    const node = await failedDeploy('iscsi-4', '52:54:00:15:00:04');
      assert.match(String(node.last_error), new RegExp(`^Deploy step deploy\\.write_image failed: Deploy to 127\\.0\\.0\\.1 failed ` +
      `for node ${String(node.uuid)}: target iqn\\S+ lun 1 at 127\\.0\\.0\\.1:\\d+: \\S`));
  } finally {
    garbage.close();
  }
});

// Where the kernel has an initiator, iscsiadm would log in and the deploy would write through
// /dev/disk/by-path; this machine's kernel has none, so what is checked is the failure path.
const kernelInitiator = fs.existsSync('/sys/module/iscsi_tcp');

test('[iscsi]initiator = iscsiadm without a kernel initiator: Debian\'s iscsiadm\'s reason in last_error, no record left',
  { skip: kernelInitiator ? 'this kernel has an iSCSI initiator (iscsi_tcp loaded)' : false }, async () => {
    tgt = await startTgt(); // the garbage test stopped the first one
    await target.stop();
    await fsp.mkdir(path.join(dir, 'ironic-iscsiadm'));
    target = await startIronicTs(path.join(dir, 'ironic-iscsiadm'), await freePort(), ironicConf(tgt.port, ['initiator = iscsiadm']));
    const disk = path.join(dir, 'disk-5.img');
    await fsp.writeFile(disk, '');
    await fsp.truncate(disk, 1200 * MIB);
    let iqn = '';
    const node = await failedDeploy('iscsi-5', '52:54:00:15:00:05', async (name) => {
      iqn = name;
      await tgt.exportDisk(iqn, disk);
    });
    assert.match(String(node.last_error), new RegExp(`^Deploy step deploy\\.write_image failed: Deploy to 127\\.0\\.0\\.1 failed ` +
      `for node ${String(node.uuid)}: iscsiadm -m discovery -t st -p 127\\.0\\.0\\.1:${tgt.port} failed: \\S.* \\(exit code \\d+\\)\\.$`));
    const records = await run('iscsiadm', ['-m', 'node', '-T', iqn]).then(() => 'records found', (err: { code?: number }) => err.code);
    assert.equal(records, 21, 'open-iscsi keeps no record of the target (exit code 21: none found)');
    const log = await fsp.readFile(path.join(dir, 'ironic-iscsiadm', 'stdout.log'), 'utf8');
    assert.match(log, /through the kernel's initiator \(iscsiadm\)/);
    await tgt.removeDisk(iqn);
  });
