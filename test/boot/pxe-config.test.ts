import { test, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  buildPxeOptions,
  cleanUpPxeConfig,
  createIpxeBootScript,
  placeCommonConfig,
  prepareNodeBoot,
  switchPxeConfig,
  switchToBoot,
} from '../../src/boot/pxe-config';
import type { BootNode, PxeConf } from '../../src/boot/options';
import { start } from '../../src/protocols/tftp/server';

const run = promisify(execFile);
const UUID = '1be26c0b-03f2-4d2e-ae87-c02d7f33c123';
const ROOT_UUID = '2a8e7d52-7a1c-4a8e-9c35-9f1d5c6e1a11';
let dir: string;
let conf: PxeConf;
let node: BootNode;

beforeEach(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'pxe-config-'));
  const src = path.join(dir, 'src');
  await fsp.mkdir(src);
  for (const f of ['deploy_kernel', 'deploy_ramdisk', 'kernel', 'ramdisk']) await fsp.writeFile(path.join(src, f), `${f} bytes`);
  conf = {
    tftp_root: path.join(dir, 'tftpboot'),
    tftp_server: '192.0.2.1',
    http_root: path.join(dir, 'httpboot'),
    http_url: 'http://192.0.2.1:8080',
    kernel_append_params: 'nofb nomodeset vga=normal',
    ipxe_timeout: 0,
  };
  node = {
    uuid: UUID,
    ports: [{ address: 'AA:BB:CC:DD:EE:FF' }, { address: '52:54:00:12:34:56' }],
    boot_mode: 'bios',
    ipxe_enabled: false,
    deploy_kernel: path.join(src, 'deploy_kernel'),
    deploy_ramdisk: path.join(src, 'deploy_ramdisk'),
    kernel: path.join(src, 'kernel'),
    ramdisk: path.join(src, 'ramdisk'),
  };
});

afterEach(async () => {
  await fsp.rm(dir, { recursive: true, force: true });
});

test('pxelinux: node dir, config, MAC links, kernel/ramdisk placed', async () => {
  const cfgPath = await prepareNodeBoot(node, conf);
  assert.equal(cfgPath, path.join(conf.tftp_root, UUID, 'config'));
  const text = await fsp.readFile(cfgPath, 'utf8');
  assert.match(text, /^default deploy$/m);
  assert.match(text, new RegExp(`^kernel ${UUID}/deploy_kernel$`, 'm'));
  assert.match(text, new RegExp(`^append initrd=${UUID}/deploy_ramdisk selinux=0 troubleshoot=0 text nofb nomodeset vga=normal`, 'm'));
  assert.match(text, /root=\{\{ ROOT \}\} ro text/);
  assert.match(text, /^label boot_partition$/m);
  const link = path.join(conf.tftp_root, 'pxelinux.cfg', '01-aa-bb-cc-dd-ee-ff');
  assert.equal(await fsp.readlink(link), `../${UUID}/config`);
  assert.equal(await fsp.readFile(path.join(conf.tftp_root, 'pxelinux.cfg', '01-52-54-00-12-34-56'), 'utf8'), text);
  assert.equal(await fsp.readlink(path.join(conf.tftp_root, 'grub.cfg-01-aa-bb-cc-dd-ee-ff')), `${UUID}/config`);
  assert.equal(await fsp.readFile(path.join(conf.tftp_root, UUID, 'deploy_kernel'), 'utf8'), 'deploy_kernel bytes');
  const st1 = await fsp.stat(node.kernel!);
  const st2 = await fsp.stat(path.join(conf.tftp_root, UUID, 'kernel'));
  assert.equal(st1.ino, st2.ino, 'same filesystem: hard link');
});

test('switchToBoot selects boot_partition and substitutes root=UUID=', async () => {
  const cfgPath = await prepareNodeBoot(node, conf);
  await switchToBoot(node, conf, ROOT_UUID);
  const text = await fsp.readFile(cfgPath, 'utf8');
  assert.match(text, /^default boot_partition$/m);
  assert.doesNotMatch(text, /ROOT/);
  assert.match(text, new RegExp(`root=UUID=${ROOT_UUID} ro text`));
});

test('served over our TFTP server by MAC name, as pxelinux would fetch it', async () => {
  await prepareNodeBoot(node, conf);
  const server = await start({ root: conf.tftp_root, port: 0 });
  try {
    const out = path.join(dir, 'fetched');
    await run('curl', ['-sS', '--max-time', '20', '-o', out, `tftp://127.0.0.1:${server.port}/pxelinux.cfg/01-aa-bb-cc-dd-ee-ff`]);
    assert.match(await fsp.readFile(out, 'utf8'), /^default deploy$/m);
    await run('curl', ['-sS', '--max-time', '20', '-o', out, `tftp://127.0.0.1:${server.port}/${UUID}/deploy_ramdisk`]);
    assert.equal(await fsp.readFile(out, 'utf8'), 'deploy_ramdisk bytes');
  } finally {
    await server.close();
  }
});

test('UEFI grub config uses (( ROOT )) markers, set default= switching and IP links', async () => {
  node.boot_mode = 'uefi';
  node.ip_addresses = ['192.0.2.50'];
  const cfgPath = await prepareNodeBoot(node, conf);
  let text = await fsp.readFile(cfgPath, 'utf8');
  assert.match(text, /^set default=deploy$/m);
  assert.match(text, /menuentry "deploy"/);
  assert.match(text, /root=\(\( ROOT \)\)/);
  assert.match(text, /boot_server=192\.0\.2\.1/);
  assert.equal(await fsp.readlink(path.join(conf.tftp_root, '192.0.2.50.conf')), `${UUID}/config`);
  assert.equal(await fsp.readlink(path.join(conf.tftp_root, 'AA:BB:CC:DD:EE:FF.conf')), `${UUID}/config`);
  await switchToBoot(node, conf, ROOT_UUID);
  text = await fsp.readFile(cfgPath, 'utf8');
  assert.match(text, /^set default=boot_partition$/m);
  assert.match(text, new RegExp(`root=UUID=${ROOT_UUID}`));
});

test('iPXE: config under http_root, bare-MAC links, URLs to http_url, goto switching', async () => {
  node.ipxe_enabled = true;
  conf.ipxe_timeout = 60;
  const opts = buildPxeOptions(node, conf);
  assert.equal(opts.deployment_aki_path, `http://192.0.2.1:8080/${UUID}/deploy_kernel`);
  assert.equal(opts.ipxe_timeout, 60000);
  const cfgPath = await prepareNodeBoot(node, conf);
  assert.equal(cfgPath, path.join(conf.http_root, UUID, 'config'));
  const text = await fsp.readFile(cfgPath, 'utf8');
  assert.ok(text.startsWith('#!ipxe\n'));
  assert.match(text, /^goto deploy$/m);
  assert.match(text, new RegExp(`^kernel --timeout 60000 http://192.0.2.1:8080/${UUID}/deploy_kernel .* BOOTIF=\\$\\{mac\\} initrd=deploy_ramdisk \\|\\| goto retry$`, 'm'));
  assert.equal(await fsp.readlink(path.join(conf.http_root, 'pxelinux.cfg', 'aa-bb-cc-dd-ee-ff')), `../${UUID}/config`);
  await switchPxeConfig(node, conf, { target: 'boot_whole_disk' });
  assert.match(await fsp.readFile(cfgPath, 'utf8'), /^goto boot_whole_disk$/m);
});

test('iPXE boot script rendered into http_root with MAC chaining', async () => {
  conf.ipxe_fallback_script = 'inspector.ipxe';
  const p = await createIpxeBootScript(conf);
  assert.equal(p, path.join(conf.http_root, 'boot.ipxe'));
  const text = await fsp.readFile(p, 'utf8');
  assert.ok(text.startsWith('#!ipxe\n'));
  assert.match(text, /chain pxelinux\.cfg\/\$\{mac:hexhyp\}/);
  assert.match(text, /chain inspector\.ipxe \| goto boot_failed/);
});

test('cleanUpPxeConfig removes links and the node directory only', async () => {
  await prepareNodeBoot(node, conf);
  await fsp.writeFile(path.join(conf.tftp_root, 'pxelinux.cfg', '01-11-22-33-44-55-66'), 'other node');
  await cleanUpPxeConfig(node, conf);
  await assert.rejects(fsp.lstat(path.join(conf.tftp_root, UUID)));
  await assert.rejects(fsp.lstat(path.join(conf.tftp_root, 'pxelinux.cfg', '01-aa-bb-cc-dd-ee-ff')));
  await assert.rejects(fsp.lstat(path.join(conf.tftp_root, 'grub.cfg-01-aa-bb-cc-dd-ee-ff')));
  assert.equal(await fsp.readFile(path.join(conf.tftp_root, 'pxelinux.cfg', '01-11-22-33-44-55-66'), 'utf8'), 'other node');
  await cleanUpPxeConfig(node, conf); // idempotent
});

test('InfiniBand client-id ports use the 20- hardware type prefix', async () => {
  node.ports = [{ address: 'aa:bb:cc:dd:ee:01', client_id: 'ff:00:00:00:00:00:02:00:00:02:c9:00:aa:bb:cc:dd:ee:01' }];
  await prepareNodeBoot(node, conf);
  await fsp.lstat(path.join(conf.tftp_root, 'pxelinux.cfg', '20-aa-bb-cc-dd-ee-01'));
});

test('initial grub.cfg chains to the per-MAC .conf link', async () => {
  const p = await placeCommonConfig(conf);
  assert.equal(p, path.join(conf.tftp_root, 'grub', 'grub.cfg'));
  assert.match(await fsp.readFile(p!, 'utf8'), /^\s+configfile \/\$net_default_mac\.conf$/m);
  assert.equal(await placeCommonConfig({ ...conf, initial_grub_template: '' }), undefined);
});
