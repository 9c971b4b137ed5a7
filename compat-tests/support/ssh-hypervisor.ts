/**
 * A libvirt hypervisor reached over SSH, for the ssh driver's tests: Debian's libvirtd (QEMU under
 * TCG) and OpenSSH's sshd in a mount namespace of their own, so libvirt's state lives on tmpfs
 * and vanishes with it. libvirtd runs in a network namespace of its own too (its VMs' user-mode
 * NICs reach nothing); sshd listens on 127.0.0.1 and lets in root with the test's key.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './target';
import { killGroup } from './process-group';

const run = promisify(execFile);

const NAMESPACE_SCRIPT = `set -e
for d in /etc/libvirt/qemu /run/libvirt /var/lib/libvirt /var/cache/libvirt /var/log/libvirt; do
  mkdir -p "$d"; mount -t tmpfs tmpfs "$d"
done
mkdir -p /var/lib/libvirt/qemu /var/log/libvirt/qemu /run/sshd
unshare -n sh -c 'virtlogd & libvirtd & wait' &
exec /usr/sbin/sshd -D -e -f "$1"
`;

export interface SshHypervisor {
  port: number;
  /** The client key sshd lets in as root (OpenSSH format). */
  clientKey: string;
  /** known_hosts text naming this sshd's host key at [127.0.0.1]:port. */
  knownHosts: string;
  /** virsh inside the hypervisor's namespace. */
  virsh(...args: string[]): Promise<string>;
  /** Defines a small diskless VM with one NIC of this MAC. */
  defineVm(name: string, mac: string): Promise<void>;
  stop(): Promise<void>;
}

async function keygen(file: string): Promise<void> {
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'ironic-ts-test', '-f', file]);
}

function sshdConfig(dir: string, port: number): string {
  return [`Port ${port}`, 'ListenAddress 127.0.0.1', `HostKey ${dir}/host_key`, `PidFile ${dir}/sshd.pid`,
    `AuthorizedKeysFile ${dir}/authorized_keys`, 'PermitRootLogin prohibit-password', 'StrictModes no', 'UsePAM no',
    'PasswordAuthentication yes', 'KbdInteractiveAuthentication no', ''].join('\n');
}

async function waitListening(port: number, child: ChildProcess, log: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && child.exitCode === null) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => { s.destroy(); resolve(true); });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`sshd did not listen on ${port}: ${fs.readFileSync(log, 'utf8').slice(-2000)}`);
}

function domainXml(name: string, mac: string): string {
  return `<domain type='qemu'><name>${name}</name><memory unit='MiB'>64</memory>
<os><type arch='x86_64'>hvm</type><boot dev='network'/></os>
<devices><interface type='user'><mac address='${mac}'/><model type='e1000'/></interface></devices></domain>`;
}

export async function startSshHypervisor(): Promise<SshHypervisor> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ironic-ssh-hv-'));
  await keygen(path.join(dir, 'host_key'));
  await keygen(path.join(dir, 'client_key'));
  fs.copyFileSync(path.join(dir, 'client_key.pub'), path.join(dir, 'authorized_keys'));
  const port = await freePort();
  fs.writeFileSync(path.join(dir, 'sshd_config'), sshdConfig(dir, port));
  fs.writeFileSync(path.join(dir, 'ns.sh'), NAMESPACE_SCRIPT);
  const log = path.join(dir, 'hypervisor.log');
  const out = fs.openSync(log, 'a');
  const child = spawn('unshare', ['-m', '--propagation', 'private', 'sh', path.join(dir, 'ns.sh'), path.join(dir, 'sshd_config')],
    { stdio: ['ignore', out, out], detached: true });
  const pid = child.pid as number;
  const virsh = async (...args: string[]): Promise<string> =>
    (await run('nsenter', ['-t', String(pid), '-m', 'virsh', '-c', 'qemu:///system', ...args])).stdout;
  try {
    await waitListening(port, child, log);
    await waitLibvirt(virsh);
  } catch (err) {
    await killGroup(pid);
    throw err;
  }
  const hostKey = fs.readFileSync(path.join(dir, 'host_key.pub'), 'utf8').trim().split(/\s+/).slice(0, 2).join(' ');
  return {
    port,
    clientKey: fs.readFileSync(path.join(dir, 'client_key'), 'utf8'),
    knownHosts: `[127.0.0.1]:${port} ${hostKey}\n`,
    virsh,
    async defineVm(name, mac) {
      const file = path.join(dir, `${name}.xml`);
      fs.writeFileSync(file, domainXml(name, mac));
      await virsh('define', file);
    },
    async stop() {
      // libvirt daemonizes its QEMUs out of the group: stop them first.
      const names = (await virsh('list', '--name').catch(() => '')).split('\n').map((l) => l.trim()).filter(Boolean);
      for (const name of names) await virsh('destroy', name).catch(() => undefined);
      await killGroup(pid);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function waitLibvirt(virsh: (...args: string[]) => Promise<string>): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await virsh('version');
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
