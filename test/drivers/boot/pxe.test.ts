import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import {
  ROOT_UUID, createNode, partitionNode, deployHolding, dnsmasqTest, exists, hooks, macPath, makeAvailable, provision, run, startBootEnv,
  waitForState, type BootEnv,
} from './support';

const MACS = ['52:54:00:12:34:56', '52:54:00:ab:cd:ef'];
let env: BootEnv;

before(async () => {
  env = await startBootEnv();
});
after(async () => {
  await env?.stop();
});
afterEach(() => {
  delete hooks.duringDeploy;
});

async function tftpCurl(name: string, extra: string[] = []): Promise<Buffer> {
  const out = path.join(env.dir, `curl-${Math.random()}`);
  await run('curl', ['-sS', '--fail', '--max-time', '30', ...extra, '-o', out, `tftp://127.0.0.1:${env.tftpPort}/${name}`]);
  return fsp.readFile(out);
}

async function tftpHpa(name: string): Promise<Buffer> {
  const out = path.join(env.dir, `tftp-${Math.random()}`);
  await run('tftp', ['-m', 'octet', '127.0.0.1', String(env.tftpPort), '-c', 'get', name, out]);
  return fsp.readFile(out);
}

test('pxe (BIOS): deploy label while deploying, boot label with the root UUID after, files gone after undeploy', async () => {
  const uuid = await createNode(env, partitionNode(env, 'pxe', 'bios'), MACS);
  await makeAvailable(env, uuid);
  const nodeDir = path.join(env.tftpRoot, uuid);
  const configPath = path.join(nodeDir, 'config');
  const links = MACS.map((m) => path.join(env.tftpRoot, 'pxelinux.cfg', `01-${macPath(m)}`));
  await deployHolding(env, uuid, async () => {
    const config = await fsp.readFile(configPath, 'utf8');
    assert.match(config, /^default deploy$/m);
    assert.match(config, new RegExp(`^kernel ${uuid}/deploy_kernel$`, 'm'));
    assert.match(config, new RegExp(`initrd=${uuid}/deploy_ramdisk .*ipa-api-url=http://\\S+ .*ipa-debug=1`));
    assert.match(config, /root=\{\{ ROOT \}\}/, 'root marker stays until the switch');
    for (const link of links) {
      assert.equal((await fsp.lstat(link)).isSymbolicLink(), true);
      assert.equal(await fsp.readFile(link, 'utf8'), config);
    }
    for (const [label, src] of [['deploy_kernel', env.images.deployKernel], ['deploy_ramdisk', env.images.deployRamdisk],
      ['kernel', env.images.kernel], ['ramdisk', env.images.ramdisk]]) {
      assert.deepEqual(await fsp.readFile(path.join(nodeDir, label!)), await fsp.readFile(src!), label);
    }
    // The rendered config and the kernel over the built-in TFTP server, with real clients.
    const name = `pxelinux.cfg/01-${macPath(MACS[0]!)}`;
    assert.equal((await tftpCurl(name)).toString(), config);
    assert.equal((await tftpCurl(name, ['--tftp-blksize', '1468'])).toString(), config);
    assert.equal((await tftpHpa(name)).toString(), config);
    assert.deepEqual(await tftpHpa(`${uuid}/deploy_kernel`), await fsp.readFile(env.images.deployKernel));
    assert.deepEqual(await tftpCurl(`/${uuid}/deploy_ramdisk`, ['--tftp-blksize', '8192']), await fsp.readFile(env.images.deployRamdisk));
    // DHCP: one host file per MAC tagging it, one option file for the node, all valid for dnsmasq.
    const opts = await fsp.readFile(path.join(env.optsDir, `ironic-${uuid}.conf`), 'utf8');
    assert.match(opts, /^tag:[0-9a-f-]+,67,pxelinux\.0$/m);
    assert.match(opts, /^tag:[0-9a-f-]+,66,127\.0\.0\.1$/m);
    for (const mac of MACS) {
      assert.match(await fsp.readFile(path.join(env.hostsDir, `ironic-${mac}.conf`), 'utf8'), new RegExp(`^${mac},set:[0-9a-f-]+,set:ironic\n$`));
    }
    await dnsmasqTest(env);
  });
  const config = await fsp.readFile(configPath, 'utf8');
  assert.match(config, /^default boot_partition$/m);
  assert.match(config, new RegExp(`^append initrd=${uuid}/ramdisk root=UUID=${ROOT_UUID} ro text`, 'm'));
  assert.equal((await tftpCurl(`pxelinux.cfg/01-${macPath(MACS[1]!)}`)).toString(), config);
  // The conductor's TFTP server keeps clients inside tftp_root.
  const escaped = path.join(env.dir, 'escaped');
  const out = await run('tftp', ['127.0.0.1', String(env.tftpPort), '-c', 'get', '../src/ipa.kernel', escaped])
    .catch((e: { stdout: string; stderr: string }) => e);
  assert.match(out.stdout + out.stderr, /Access violation/);
  assert.equal(await fsp.readFile(escaped, 'utf8').catch(() => ''), '');

  await provision(env, uuid, 'deleted');
  await waitForState(env, uuid, 'available');
  assert.equal(await exists(nodeDir), false);
  for (const link of links) assert.equal(await exists(link), false, link);
  await assert.rejects(tftpCurl(`pxelinux.cfg/01-${macPath(MACS[0]!)}`));
  for (const mac of MACS) assert.equal(await fsp.readFile(path.join(env.hostsDir, `ironic-${mac}.conf`), 'utf8'), `${mac},ignore\n`);
  assert.equal(await exists(path.join(env.optsDir, `ironic-${uuid}.conf`)), false);
  await dnsmasqTest(env);
});

test('pxe (UEFI): grub config with grub.cfg-01-<mac> links switches to boot_partition', async () => {
  const uuid = await createNode(env, partitionNode(env, 'pxe', 'uefi'), ['52:54:00:00:00:01']);
  await makeAvailable(env, uuid);
  const link = path.join(env.tftpRoot, 'grub.cfg-01-52-54-00-00-00-01');
  await deployHolding(env, uuid, async () => {
    const config = await fsp.readFile(link, 'utf8');
    assert.match(config, /^set default=deploy$/m);
    assert.match(config, new RegExp(`linuxefi ${uuid}/deploy_kernel .*ipa-api-url=`));
    assert.equal((await tftpCurl('grub/grub.cfg')).toString().includes('configfile /$net_default_mac.conf'), true);
    const opts = await fsp.readFile(path.join(env.optsDir, `ironic-${uuid}.conf`), 'utf8');
    assert.match(opts, /,67,bootx64\.efi$/m);
  });
  const config = (await tftpCurl('grub.cfg-01-52-54-00-00-00-01')).toString();
  assert.match(config, /^set default=boot_partition$/m);
  assert.match(config, new RegExp(`root=UUID=${ROOT_UUID} ro`));
  await provision(env, uuid, 'deleted');
  await waitForState(env, uuid, 'available');
  assert.equal(await exists(link), false);
  assert.equal(await exists(path.join(env.tftpRoot, uuid)), false);
});

test('a deploy kernel that cannot be fetched fails the deploy with last_error and nothing partial stays in the master cache', async () => {
  const body = partitionNode(env, 'pxe', 'bios');
  body.driver_info = { deploy_kernel: `file://${env.dir}/missing.kernel`, deploy_ramdisk: `file://${env.images.deployRamdisk}` };
  const uuid = await createNode(env, body, ['52:54:00:00:00:02']);
  await makeAvailable(env, uuid);
  await provision(env, uuid, 'active');
  const failed = await waitForState(env, uuid, 'deploy failed', true);
  assert.match(failed.last_error, /Failed to download image file:\/\/.*missing\.kernel, reason: .*not found/);
  // Only complete images are ever cached: the ramdisk, nothing for the kernel, no temp files.
  const master = path.join(env.dir, 'master_images');
  const ramdisk = await fsp.readFile(env.images.deployRamdisk);
  for (const key of await fsp.readdir(master)) {
    assert.equal(key.startsWith('.tmp-'), false, key);
    const bytes = await fsp.readFile(path.join(master, key));
    assert.ok(bytes.length > 0);
  }
  assert.equal(await exists(path.join(env.tftpRoot, uuid, 'deploy_kernel')), false);
  assert.deepEqual(await fsp.readFile(path.join(env.tftpRoot, uuid, 'deploy_ramdisk')), ramdisk);
});
