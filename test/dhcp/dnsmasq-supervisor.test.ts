import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startDnsmasqSupervisor, type DnsmasqSupervisorOptions } from '../../src/dhcp/dnsmasq-supervisor';

const rootOnly = process.getuid?.() === 0 ? false : 'dnsmasq binds the DHCP port (root)';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(what: string, pred: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await pred())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function options(dir: string): Promise<DnsmasqSupervisorOptions> {
  await fsp.chmod(dir, 0o755);
  const d = path.join(dir, 'dnsmasq');
  return {
    binary: '/usr/sbin/dnsmasq',
    interface: 'lo',
    dhcpRange: '127.0.0.200,127.0.0.250,255.0.0.0,1h',
    dirs: { dhcp_hostsdir: path.join(d, 'hosts'), dhcp_optsdir: path.join(d, 'opts'), dhcp_leasefile: path.join(d, 'leases'), pid_file: path.join(d, 'dnsmasq.pid') },
    defaultBoot: { bios: 'undionly.kpxe', uefi: 'snponly.efi', ipxe_script_url: 'http://127.0.0.1:8080/boot.ipxe', tftp_server: '127.0.0.1' },
  };
}

test('lab dnsmasq runs with its generated configuration, is restarted when it dies, and stops', { skip: rootOnly }, async () => {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'dnsmasq-sup-'));
  const o = await options(dir);
  const sup = await startDnsmasqSupervisor(o);
  try {
    const first = sup.pid();
    assert.ok(first && alive(first));
    const text = await fsp.readFile(path.join(dir, 'dnsmasq', 'dnsmasq.conf'), 'utf8');
    assert.match(text, /^interface=lo$/m);
    assert.match(text, /^dhcp-range=127\.0\.0\.200,127\.0\.0\.250,255\.0\.0\.0,1h$/m);
    assert.match(text, new RegExp(`^dhcp-hostsdir=${o.dirs.dhcp_hostsdir}$`, 'm'));
    assert.match(text, /^dhcp-boot=tag:!ironic,tag:ipxe,http:\/\/127\.0\.0\.1:8080\/boot\.ipxe$/m);
    await until('the pid file', async () => (await fsp.readFile(o.dirs.pid_file, 'utf8').catch(() => '')).trim() === String(first));
    process.kill(first, 'SIGKILL');
    await until('a new dnsmasq', () => sup.pid() !== first && alive(sup.pid() ?? 0));
    const second = sup.pid() as number;
    await sup.stop();
    await until('dnsmasq to stop', () => !alive(second));
  } finally {
    await sup.stop();
    await fsp.rm(dir, { recursive: true, force: true });
  }
});

test('a dnsmasq that cannot start fails the conductor start with a message', { skip: rootOnly }, async () => {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'dnsmasq-sup-'));
  try {
    const o = { ...(await options(dir)), dhcpRange: 'not-a-range' };
    await assert.rejects(startDnsmasqSupervisor(o), /dnsmasq exited at start/);
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
});
