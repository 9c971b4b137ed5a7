/**
 * The server a compat test talks to: a fresh ironic-ts child process (the default), or, with
 * IRONIC_TS_COMPAT_TARGET=reference, a fresh reference Ironic, to check the tests themselves.
 */
import { spawn, ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as net from 'node:net';
import { startReferenceIronic } from './reference-ironic';

export interface Target {
  url: string;
  kind: 'ironic-ts' | 'reference';
  dir: string;
  pid: number;
  stop(): Promise<void>;
}

const REPO = path.resolve(__dirname, '..', '..', '..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** The [DEFAULT] lines that enable fake-hardware with the interfaces the reference's launcher gives it. */
export const FAKE_HARDWARE_INTERFACES = `enabled_hardware_types = fake-hardware
enabled_bios_interfaces = fake,no-bios
enabled_boot_interfaces = fake
enabled_console_interfaces = fake,no-console
enabled_deploy_interfaces = fake
enabled_inspect_interfaces = fake,no-inspect
enabled_management_interfaces = fake
enabled_network_interfaces = noop
enabled_power_interfaces = fake
enabled_raid_interfaces = fake,no-raid
enabled_rescue_interfaces = fake,no-rescue
enabled_storage_interfaces = noop
enabled_vendor_interfaces = fake,no-vendor
default_deploy_interface = fake
default_network_interface = noop`;

/** The ironic.conf both servers get: noauth, fake-hardware, in-process RPC, SQLite. */
export function referenceLikeConf(dir: string, port: number, extra = ''): string {
  return `[DEFAULT]
auth_strategy = noauth
host = reference
rpc_transport = none
${FAKE_HARDWARE_INTERFACES}
state_path = ${dir}/state
${extra}
[api]
host_ip = 127.0.0.1
port = ${port}
[database]
connection = sqlite:///${dir}/ironic.sqlite
[dhcp]
dhcp_provider = none
[conductor]
automated_clean = false
`;
}

export async function startTarget(opts: { extraConf?: string; kind?: Target['kind'] } = {}): Promise<Target> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ironic-compat-'));
  const port = await freePort();
  const kind = opts.kind ?? (process.env.IRONIC_TS_COMPAT_TARGET === 'reference' ? 'reference' : 'ironic-ts');
  if (kind === 'reference') return startReference(dir, port);
  return startIronicTs(dir, port, opts.extraConf ?? '');
}

export async function startIronicTs(dir: string, port: number, extraConf: string): Promise<Target> {
  return startIronicTsWithConf(dir, port, referenceLikeConf(dir, port, extraConf));
}

/** ironic-ts on a whole ironic.conf of the caller's (for options referenceLikeConf's sections fix). */
export async function startIronicTsWithConf(dir: string, port: number, conf: string): Promise<Target> {
  const confFile = path.join(dir, 'ironic.conf');
  fs.writeFileSync(confFile, conf);
  const log = fs.openSync(path.join(dir, 'stdout.log'), 'a');
  const child = spawn(process.execPath, [path.join(REPO, 'dist', 'src', 'cmd', 'ironic.js'), '--config-file', confFile], {
    stdio: ['ignore', log, log],
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitReady(url, child, dir);
  } catch (err) {
    // The target owns its directory (stop() removes it), including when it never came up.
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return { url, kind: 'ironic-ts', dir, pid: child.pid as number, stop: () => stopChild(child, dir) };
}

export async function startReference(dir: string, port: number): Promise<Target> {
  const server = await startReferenceIronic({ dir, port }).catch((err: Error) => {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  });
  return {
    url: server.url,
    kind: 'reference',
    dir,
    pid: server.pid,
    async stop() {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function waitReady(url: string, child: ChildProcess, dir: string): Promise<void> {
  const deadline = Date.now() + 30000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const res = await fetch(`${url}/v1`);
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const output = fs.existsSync(path.join(dir, 'stdout.log')) ? fs.readFileSync(path.join(dir, 'stdout.log'), 'utf8') : '';
  child.kill('SIGKILL');
  throw new Error(`ironic-ts did not become ready at ${url}:\n${output.slice(-3000)}`);
}

/** SIGTERM, then SIGKILL if the process has not exited within 5 s. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  const running = (): boolean => child.exitCode === null && child.signalCode === null;
  if (!running()) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  if (running()) child.kill('SIGKILL');
}

async function stopChild(child: ChildProcess, dir: string): Promise<void> {
  await stopProcess(child);
  fs.rmSync(dir, { recursive: true, force: true });
}
