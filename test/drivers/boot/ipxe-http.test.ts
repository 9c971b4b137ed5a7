import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import {
  ROOT_UUID, createNode, partitionNode, deployHolding, dnsmasqTest, exists, hooks, macPath, makeAvailable, provision, run, startBootEnv,
  waitForState, type BootEnv,
} from './support';

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

async function curl(urlPath: string): Promise<Buffer> {
  const { stdout } = await run('curl', ['-sS', '--fail', '--max-time', '30', `${env.httpUrl}/${urlPath}`], { encoding: 'buffer' });
  return stdout;
}

test('ipxe: the boot script and per-MAC iPXE script are served over HTTP; goto deploy, then goto boot_partition', async () => {
  const mac = '52:54:00:0a:0b:0c';
  const uuid = await createNode(env, partitionNode(env, 'ipxe', 'uefi'), [mac]);
  await makeAvailable(env, uuid);
  const macUrl = `pxelinux.cfg/${macPath(mac)}`;
  await deployHolding(env, uuid, async () => {
    const script = (await curl(macUrl)).toString();
    assert.equal(script, await fsp.readFile(path.join(env.httpRoot, uuid, 'config'), 'utf8'));
    assert.match(script, /^#!ipxe/);
    assert.match(script, /^goto deploy$/m);
    assert.match(script, new RegExp(`^kernel ${env.httpUrl}/${uuid}/deploy_kernel .*ipa-api-url=http://\\S+ .*initrd=deploy_ramdisk`, 'm'));
    const boot = (await curl('boot.ipxe')).toString();
    assert.match(boot, /chain pxelinux\.cfg\/\$\{mac:hexhyp\}/);
    // Kernel and ramdisk the script points at come from the same server.
    assert.deepEqual(await curl(`${uuid}/deploy_kernel`), await fsp.readFile(env.images.deployKernel));
    assert.deepEqual(await curl(`${uuid}/ramdisk`), await fsp.readFile(env.images.ramdisk));
    const opts = await fsp.readFile(path.join(env.optsDir, `ironic-${uuid}.conf`), 'utf8');
    assert.match(opts, /,tag:!ipxe,67,snponly\.efi$/m);
    assert.match(opts, new RegExp(`,tag:ipxe,67,${env.httpUrl.replace(/[.]/g, '\\.')}/boot\\.ipxe$`, 'm'));
    await dnsmasqTest(env);
  });
  const script = (await curl(macUrl)).toString();
  assert.match(script, /^goto boot_partition$/m);
  assert.match(script, new RegExp(`^kernel ${env.httpUrl}/${uuid}/kernel root=UUID=${ROOT_UUID} ro`, 'm'));
  await provision(env, uuid, 'deleted');
  await waitForState(env, uuid, 'available');
  assert.equal(await exists(path.join(env.httpRoot, uuid)), false);
  assert.equal(await exists(path.join(env.httpRoot, macUrl)), false);
  const gone = await run('curl', ['-sS', '-o', '/dev/null', '-w', '%{http_code}', `${env.httpUrl}/${macUrl}`]);
  assert.equal(gone.stdout, '404');
});

test('http (UEFI HTTP boot): grub config under http_root, boot file handed out as a URL', async () => {
  const mac = '52:54:00:0d:0e:0f';
  const uuid = await createNode(env, partitionNode(env, 'http', 'uefi'), [mac]);
  await makeAvailable(env, uuid);
  const grubUrl = `grub.cfg-01-${macPath(mac)}`;
  await deployHolding(env, uuid, async () => {
    const config = (await curl(grubUrl)).toString();
    assert.match(config, /^set default=deploy$/m);
    assert.match(config, new RegExp(`linuxefi ${uuid}/deploy_kernel `));
    assert.equal(await exists(path.join(env.tftpRoot, uuid)), false, 'nothing under tftp_root');
    const opts = await fsp.readFile(path.join(env.optsDir, `ironic-${uuid}.conf`), 'utf8');
    assert.match(opts, new RegExp(`,67,${env.httpUrl.replace(/[.]/g, '\\.')}/bootx64\\.efi$`, 'm'));
    assert.match(opts, /,60,HTTPClient$/m);
    await dnsmasqTest(env);
  });
  assert.match((await curl(grubUrl)).toString(), /^set default=boot_partition$/m);
  await provision(env, uuid, 'deleted');
  await waitForState(env, uuid, 'available');
  assert.equal(await exists(path.join(env.httpRoot, grubUrl)), false);
  assert.equal(await exists(path.join(env.httpRoot, uuid)), false);
});

test('http-ipxe: iPXE scripts under http_root, iPXE itself fetched by URL', async () => {
  const mac = '52:54:00:0d:0e:10';
  const uuid = await createNode(env, partitionNode(env, 'http-ipxe', 'uefi'), [mac]);
  await makeAvailable(env, uuid);
  await deployHolding(env, uuid, async () => {
    assert.match((await curl(`pxelinux.cfg/${macPath(mac)}`)).toString(), /^goto deploy$/m);
    const opts = await fsp.readFile(path.join(env.optsDir, `ironic-${uuid}.conf`), 'utf8');
    assert.match(opts, new RegExp(`,tag:!ipxe,67,${env.httpUrl.replace(/[.]/g, '\\.')}/snponly\\.efi$`, 'm'));
    await dnsmasqTest(env);
  });
  assert.match((await curl(`pxelinux.cfg/${macPath(mac)}`)).toString(), /^goto boot_partition$/m);
  await provision(env, uuid, 'deleted');
  await waitForState(env, uuid, 'available');
});
