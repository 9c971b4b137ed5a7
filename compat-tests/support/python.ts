/**
 * Runs the OpenStack clients (`baremetal`, `openstack`, python3 with openstacksdk), unmodified,
 * against a target with noauth, each with a scratch HOME (ironicclient caches negotiated versions
 * there). Two sets: Debian 12's (python-ironicclient 5.0, openstacksdk 0.101) from the
 * host, and Debian 13's (2025.1: python-ironicclient 5.10, openstacksdk 4.4) run inside the
 * project's Debian 13 root (scripts/debian13-root.sh).
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ensureDebian13, inDebian13 } from './debian13-root';

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** One release's client programs. */
export interface ClientSet {
  readonly release: '2023.1' | '2025.1';
  /** `baremetal ARGS` against url; pass `-f json` yourself where the output is parsed. */
  baremetal(url: string, args: string[], apiVersion?: string): Promise<RunResult>;
  /** `openstack ARGS` against url (prefix `baremetal` yourself). */
  openstack(url: string, args: string[], apiVersion?: string): Promise<RunResult>;
  /** A Python script (given as text) with the target URL in IRONIC_URL. */
  python(script: string, url: string): Promise<RunResult>;
  /** Makes the programs available (the Debian 13 root builds on first use). */
  prepare(): Promise<void>;
}

const DEBIAN13_CLIENT_PACKAGES = ['python3-ironicclient', 'python3-openstackclient', 'python3-openstacksdk'];

const scratchHome = fs.mkdtempSync(path.join(os.tmpdir(), 'ironic-compat-home-'));

function run(file: string, args: string[], env: Record<string, string> = {}, input?: string): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = execFile(
      file,
      args,
      { env: { PATH: '/usr/bin:/bin:/usr/sbin:/sbin', HOME: scratchHome, LANG: 'C.UTF-8', ...env }, timeout: 120000, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err ? (typeof (err as NodeJS.ErrnoException).code === 'number' ? Number((err as NodeJS.ErrnoException).code) : 1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}

const versionArgs = (apiVersion?: string): string[] => (apiVersion ? ['--os-baremetal-api-version', apiVersion] : []);
const noauth = (url: string): string[] => ['--os-endpoint', url, '--os-auth-type', 'none'];

/** A client set whose programs run through `launch` (directly, or inside the Debian 13 root). */
function clientSet(release: ClientSet['release'], launch: (file: string, args: string[], env?: Record<string, string>, input?: string) => Promise<RunResult>,
  prepare: () => Promise<void>): ClientSet {
  return {
    release,
    baremetal: (url, args, apiVersion) => launch('/usr/bin/baremetal', [...noauth(url), ...versionArgs(apiVersion), ...args]),
    openstack: (url, args, apiVersion) => launch('/usr/bin/openstack', [...noauth(url), ...versionArgs(apiVersion), ...args]),
    python: (script, url) => launch('/usr/bin/python3', ['-'], { IRONIC_URL: url }, script),
    prepare,
  };
}

/** Debian 12's clients, on this machine. */
export const DEBIAN12_CLIENTS: ClientSet = clientSet('2023.1', (file, args, env, input) => run(file, args, env, input), async () => undefined);

/** Debian 13's clients, in the Debian 13 root (sharing the host's network and the scratch HOME). */
export const DEBIAN13_CLIENTS: ClientSet = clientSet(
  '2025.1',
  (file, args, env, input) => run(...inDebian13([scratchHome], file, args), env, input),
  () => ensureDebian13(DEBIAN13_CLIENT_PACKAGES),
);

export const baremetal = DEBIAN12_CLIENTS.baremetal;
export const openstack = DEBIAN12_CLIENTS.openstack;
export const python = DEBIAN12_CLIENTS.python;

/** Parses `-f json` output, failing the test with the command's stderr when it is not JSON. */
export function parseJson<T = unknown>(result: RunResult): T {
  if (result.code !== 0) throw new Error(`command failed (${result.code}): ${result.stderr}`);
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new Error(`not JSON: ${result.stdout.slice(0, 500)}\n${result.stderr}`);
  }
}
