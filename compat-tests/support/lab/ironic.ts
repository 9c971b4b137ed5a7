/**
 * ironic-ts in lab mode inside the lab's namespace: the README's lab ironic.conf with this lab's
 * paths and addresses, the `ironic` process (API, conductor, dnsmasq, TFTP, HTTP), and the
 * `baremetal` CLI and curl run inside the namespace against it.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { LabNetwork } from './network';

const REPO = path.resolve(__dirname, '..', '..', '..', '..');

export interface LabRamdisk {
  kernel: string;
  initramfs: string;
}

/** The README's lab example ("Lab mode"), filled in. */
export function labConf(o: { net: LabNetwork; dir: string; ramdisk: LabRamdisk }): string {
  return `[DEFAULT]
auth_strategy = noauth
state_path = ${o.dir}/state
debug = true

[api]
host_ip = ${o.net.address}
port = 6385
allow_insecure_noauth = true

[database]
connection = sqlite:///${o.dir}/ironic.sqlite

[lab]
provisioning_interface = ${o.net.bridge}

[conductor]
deploy_kernel = file://${o.ramdisk.kernel}
deploy_ramdisk = file://${o.ramdisk.initramfs}
rescue_kernel = file://${o.ramdisk.kernel}
rescue_ramdisk = file://${o.ramdisk.initramfs}

[pxe]
kernel_append_params = console=ttyS0,115200n8 nofb nomodeset vga=normal
`;
}

export interface LabIronic {
  url: string;
  logFile: string;
  /** `baremetal ARGS` inside the namespace (noauth). */
  baremetal(args: string[], timeoutMs?: number): Promise<{ code: number; stdout: string; stderr: string }>;
  /** PUT a JSON body to an API path with curl inside the namespace; resolves with the HTTP status. */
  put(urlPath: string, body: unknown): Promise<number>;
  /** GET an API path with curl inside the namespace, parsed. */
  get<T = Record<string, unknown>>(urlPath: string): Promise<T>;
  stop(): Promise<void>;
}

function run(file: string, args: string[], env: Record<string, string>, timeout: number): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { env, timeout, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as NodeJS.ErrnoException).code === 'number' ? Number((err as NodeJS.ErrnoException).code) : 1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

export async function startLabIronic(o: { net: LabNetwork; dir: string; conf: string }): Promise<LabIronic> {
  const confFile = path.join(o.dir, 'ironic.conf');
  const logFile = path.join(o.dir, 'ironic.log');
  await fsp.writeFile(confFile, o.conf);
  const home = await fsp.mkdtemp(path.join(os.tmpdir(), 'ironic-lab-home-'));
  const env = { PATH: '/usr/bin:/bin:/usr/sbin:/sbin', HOME: home, LANG: 'C.UTF-8' };
  const url = `http://${o.net.address}:6385`;
  const log = await fsp.open(logFile, 'a');
  const [file, args] = o.net.inside(process.execPath, [path.join(REPO, 'dist', 'src', 'cmd', 'ironic.js'), '--config-file', confFile]);
  const child: ChildProcess = spawn(file, args, { stdio: ['ignore', log.fd, log.fd] });
  await log.close();

  const curl = (urlPath: string): Promise<{ code: number; stdout: string; stderr: string }> => {
    const [f, a] = o.net.inside('curl', ['-sf', '-H', 'X-OpenStack-Ironic-API-Version: 1.96', `${url}${urlPath}`]);
    return run(f, a, env, 30_000);
  };
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    await fsp.rm(home, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  while ((await curl('/v1')).code !== 0) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`ironic-ts did not come up in the lab:\n${(await fsp.readFile(logFile, 'utf8')).slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  return {
    url, logFile,
    baremetal(bmArgs, timeoutMs = 300_000) {
      const [f, a] = o.net.inside('/usr/bin/baremetal', ['--os-endpoint', url, '--os-auth-type', 'none', '--os-baremetal-api-version', '1.82', ...bmArgs]);
      return run(f, a, env, timeoutMs);
    },
    async put(urlPath, body) {
      const [f, a] = o.net.inside('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', '-X', 'PUT', '-H', 'Content-Type: application/json',
        '-H', 'X-OpenStack-Ironic-API-Version: 1.96', '--data-binary', JSON.stringify(body), `${url}${urlPath}`]);
      const r = await run(f, a, env, 60_000);
      return Number(r.stdout);
    },
    async get<T>(urlPath: string): Promise<T> {
      const r = await curl(urlPath);
      if (r.code !== 0) throw new Error(`GET ${urlPath} failed (${r.code}): ${r.stderr}`);
      return JSON.parse(r.stdout) as T;
    },
    stop,
  };
}

type NodeRow = Record<string, any>;

/** `baremetal ARGS`, which must succeed; its output. */
export async function bmOk(ironic: LabIronic, args: string[], timeoutMs?: number): Promise<string> {
  const r = await ironic.baremetal(args, timeoutMs);
  if (r.code !== 0) throw new Error(`baremetal ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
  return r.stdout;
}

/**
 * Polls the node until it is in `want` with no target (a failed state has one) and no lock; stops
 * early on another failed state. The error carries last_error and, given `console`, the VM's console end.
 */
export async function waitState(ironic: LabIronic, uuid: string, want: string, timeoutMs: number,
  console?: () => Promise<string>): Promise<NodeRow> {
  const deadline = Date.now() + timeoutMs;
  let node: NodeRow = {};
  while (Date.now() < deadline) {
    node = await ironic.get<NodeRow>(`/v1/nodes/${uuid}`);
    const settled = node.target_provision_state === null || want.endsWith('failed');
    if (node.provision_state === want && settled && node.reservation === null) return node;
    if (/failed$/.test(String(node.provision_state)) && !want.endsWith('failed')) break;
    await new Promise((r) => setTimeout(r, 3000));
  }
  const tail = console ? `\nconsole end:\n${(await console()).slice(-4000)}` : '';
  throw new Error(`node never reached ${want}: ${node.provision_state} (last_error ${node.last_error})${tail}`);
}
