import { test, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { once } from 'node:events';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DnsmasqDhcpProvider, type DnsmasqConf } from '../../src/dhcp/dnsmasq';
import { renderDnsmasqConf } from '../../src/dhcp/dnsmasq-conf';
import { bootFileFor, dhcpOptionsForInstance, type DhcpBootConf } from '../../src/dhcp/boot-options';
import { createDhcpProvider } from '../../src/dhcp/factory';

const run = promisify(execFile);
const DNSMASQ = '/usr/sbin/dnsmasq';
const NODE = '1be26c0b-03f2-4d2e-ae87-c02d7f33c123';
let dir: string;
let conf: DnsmasqConf;
const boot: DhcpBootConf = { tftp_server: '192.0.2.1', tftp_root: '/tftpboot', http_url: 'http://192.0.2.1:8080/', ipxe_boot_script: '/etc/ironic/boot.ipxe' };

beforeEach(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'dnsmasq-'));
  conf = { dhcp_hostsdir: path.join(dir, 'hosts'), dhcp_optsdir: path.join(dir, 'opts'), dhcp_leasefile: path.join(dir, 'leases') };
});
afterEach(async () => {
  await fsp.rm(dir, { recursive: true, force: true });
});

async function dnsmasqTest(confText: string): Promise<void> {
  const file = path.join(dir, `check-${Math.random()}.conf`);
  await fsp.writeFile(file, confText);
  const { stderr, stdout } = await run(DNSMASQ, ['--test', `--conf-file=${file}`]);
  assert.match(stdout + stderr, /syntax check OK/);
}

/** dnsmasq --test does not open the dirs, so also check each line as a direct option. */
async function dnsmasqTestGenerated(): Promise<void> {
  const lines = [renderDnsmasqConf({ ...conf, dhcp_range: '192.0.2.100,192.0.2.200,12h' })];
  for (const f of await fsp.readdir(conf.dhcp_hostsdir)) {
    for (const l of (await fsp.readFile(path.join(conf.dhcp_hostsdir, f), 'utf8')).trim().split('\n')) lines.push(`dhcp-host=${l}`);
  }
  for (const f of await fsp.readdir(conf.dhcp_optsdir)) {
    for (const l of (await fsp.readFile(path.join(conf.dhcp_optsdir, f), 'utf8')).trim().split('\n')) lines.push(`dhcp-option=${l}`);
  }
  await dnsmasqTest(lines.join('\n') + '\n');
}

test('boot file selection: PXE/iPXE, BIOS/UEFI, per arch', () => {
  assert.equal(bootFileFor({ boot_mode: 'bios', ipxe_enabled: false }, boot), 'pxelinux.0');
  assert.equal(bootFileFor({ boot_mode: 'uefi', ipxe_enabled: false }, boot), 'bootx64.efi');
  assert.equal(bootFileFor({ boot_mode: 'bios', ipxe_enabled: true }, boot), 'undionly.kpxe');
  assert.equal(bootFileFor({ boot_mode: 'uefi', ipxe_enabled: true }, { ...boot, uefi_ipxe_bootfile_name: 'ipxe.efi' }), 'ipxe.efi');
  assert.equal(bootFileFor({ boot_mode: 'uefi', ipxe_enabled: false, cpu_arch: 'aarch64' }, { ...boot, pxe_bootfile_name_by_arch: { aarch64: 'grubaa64.efi' } }), 'grubaa64.efi');
});

test('iPXE options chain by tag; PXE options carry 66/67/150/210/255', () => {
  const ipxe = dhcpOptionsForInstance({ boot_mode: 'bios', ipxe_enabled: true }, boot);
  assert.deepEqual(ipxe.slice(0, 2), [
    { opt_name: 'tag:!ipxe,67', opt_value: 'undionly.kpxe', ip_version: 4 },
    { opt_name: 'tag:ipxe,67', opt_value: 'http://192.0.2.1:8080/boot.ipxe', ip_version: 4 },
  ]);
  const pxe = dhcpOptionsForInstance({ boot_mode: 'uefi', ipxe_enabled: false }, boot);
  assert.deepEqual(pxe.map((o) => [o.opt_name, o.opt_value]), [
    ['67', 'bootx64.efi'],
    ['210', '/tftpboot/'],
    ['66', '192.0.2.1'],
    ['150', '192.0.2.1'],
    ['255', '192.0.2.1'],
  ]);
  const v6 = dhcpOptionsForInstance({ boot_mode: 'uefi', ipxe_enabled: true }, { ...boot, my_ipv6: '2001:db8::1' }, { ip_version: 6 });
  assert.deepEqual(v6.map((o) => o.opt_name), ['tag:!ipxe6,59', 'tag:ipxe6,59']);
  assert.equal(v6[0]!.opt_value, 'tftp://[2001:db8::1]/snponly.efi');
});

test('host and option files are written per MAC / per node and pass dnsmasq --test', async () => {
  const p = new DnsmasqDhcpProvider(conf);
  const node = { uuid: NODE, pxe_macs: ['AA:BB:CC:DD:EE:FF', '52:54:00:12:34:56'] };
  const opts = [
    ...dhcpOptionsForInstance({ boot_mode: 'bios', ipxe_enabled: true }, boot),
    ...dhcpOptionsForInstance({ boot_mode: 'bios', ipxe_enabled: true }, boot, { ip_version: 6 }),
  ];
  const { tag } = await p.updateDhcpOpts(node, opts);
  assert.match(tag!, /^[0-9a-f-]{36}$/);
  assert.equal(await fsp.readFile(path.join(conf.dhcp_hostsdir, 'ironic-aa:bb:cc:dd:ee:ff.conf'), 'utf8'), `aa:bb:cc:dd:ee:ff,set:${tag},set:ironic\n`);
  const optText = await fsp.readFile(path.join(conf.dhcp_optsdir, `ironic-${NODE}.conf`), 'utf8');
  assert.match(optText, new RegExp(`^tag:${tag},tag:ipxe,67,http://192.0.2.1:8080/boot.ipxe$`, 'm'));
  assert.match(optText, new RegExp(`^tag:${tag},tag:!ipxe6,option6:59,tftp://192.0.2.1/undionly.kpxe$`, 'm'));
  assert.deepEqual((await fsp.readdir(conf.dhcp_hostsdir)).filter((f) => f.startsWith('.')), []);
  await dnsmasqTestGenerated();
  // The tag is stable across updates when the caller hands it back.
  const again = await p.updateDhcpOpts({ ...node, dnsmasq_tag: tag! }, dhcpOptionsForInstance({ boot_mode: 'uefi', ipxe_enabled: false }, boot));
  assert.equal(again.tag, tag);
  await dnsmasqTestGenerated();
});

test('base config with hostsdir/optsdir and default boot passes dnsmasq --test', async () => {
  await fsp.mkdir(conf.dhcp_hostsdir);
  await fsp.mkdir(conf.dhcp_optsdir);
  const text = renderDnsmasqConf({ ...conf, dhcp_range: '192.0.2.100,192.0.2.200,12h', default_boot: { bios: 'undionly.kpxe', uefi: 'snponly.efi', ipxe_script_url: 'http://192.0.2.1:8080/boot.ipxe', tftp_server: '192.0.2.1' } });
  assert.match(text, /^dhcp-match=set:ipxe,175$/m);
  assert.match(text, /^dhcp-boot=tag:!ironic,tag:!ipxe,tag:efi-x86_64,snponly.efi,,192.0.2.1$/m);
  await dnsmasqTest(text);
});

test('clean turns hosts to ignore, removes the options file; leases give IPs', async () => {
  const p = new DnsmasqDhcpProvider(conf);
  const node = { uuid: NODE, pxe_macs: ['aa:bb:cc:dd:ee:ff'] };
  await p.updateDhcpOpts(node, dhcpOptionsForInstance({ boot_mode: 'bios', ipxe_enabled: false }, boot));
  await fsp.writeFile(conf.dhcp_leasefile!, '1700000000 aa:bb:cc:dd:ee:ff 192.0.2.150 host1 *\n1700000000 11:22:33:44:55:66 192.0.2.151 other *\n');
  assert.deepEqual(await p.getIpAddresses(node), ['192.0.2.150']);
  await p.cleanDhcpOpts(node);
  assert.equal(await fsp.readFile(p.hostFilePath('aa:bb:cc:dd:ee:ff'), 'utf8'), 'aa:bb:cc:dd:ee:ff,ignore\n');
  await assert.rejects(fsp.stat(p.optFilePath(NODE)));
  await dnsmasqTestGenerated();
});

test('bad MACs and newline injection are refused', async () => {
  const p = new DnsmasqDhcpProvider(conf);
  await assert.rejects(p.updateDhcpOpts({ uuid: NODE, pxe_macs: ['zz:bb'] }, []), { name: 'DnsmasqError' });
  await assert.rejects(p.updateDhcpOpts({ uuid: NODE, pxe_macs: [] }, [{ opt_name: '67', opt_value: 'x\ndhcp-script=/bin/sh', ip_version: 4 }]), { name: 'DnsmasqError' });
});

test('reload sends SIGHUP to the pid in pid_file', async () => {
  const child = spawn(process.execPath, ['-e', "process.on('SIGHUP',()=>{console.log('hup');process.exit(0)});console.log('ready');setInterval(()=>{},1000)"]);
  try {
    await once(child.stdout, 'data');
    const pidFile = path.join(dir, 'dnsmasq.pid');
    await fsp.writeFile(pidFile, `${child.pid}\n`);
    const p = new DnsmasqDhcpProvider({ ...conf, pid_file: pidFile });
    const exited = once(child, 'exit');
    await p.updateDhcpOpts({ uuid: NODE, pxe_macs: ['aa:bb:cc:dd:ee:ff'] }, []);
    const [code] = await exited;
    assert.equal(code, 0);
  } finally {
    if (child.exitCode === null) child.kill();
  }
});

test('a dnsmasq that is not running (crashed, restarting) does not fail the node: files are written, no signal', async () => {
  const child = spawn(process.execPath, ['-e', '0']);
  await once(child, 'exit');
  const pidFile = path.join(dir, 'dnsmasq.pid');
  await fsp.writeFile(pidFile, `${child.pid}\n`);
  const p = new DnsmasqDhcpProvider({ ...conf, pid_file: pidFile });
  assert.equal(await p.reload(), false);
  await p.updateDhcpOpts({ uuid: NODE, pxe_macs: ['aa:bb:cc:dd:ee:ff'] }, []);
  await p.cleanDhcpOpts({ uuid: NODE, pxe_macs: ['aa:bb:cc:dd:ee:ff'] });
  assert.equal(await fsp.readFile(p.hostFilePath('aa:bb:cc:dd:ee:ff'), 'utf8'), 'aa:bb:cc:dd:ee:ff,ignore\n');
});

test('none provider does nothing; factory picks providers', async () => {
  const none = createDhcpProvider('none');
  assert.deepEqual(await none.updateDhcpOpts({ uuid: NODE, pxe_macs: ['aa:bb:cc:dd:ee:ff'] }, []), {});
  assert.equal(none.supportsIpxeTag(), false);
  assert.equal(createDhcpProvider('dnsmasq', { dnsmasq: conf }).name, 'dnsmasq');
  assert.throws(() => createDhcpProvider('dnsmasq'), { name: 'DnsmasqError' });
});
