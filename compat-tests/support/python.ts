/**
 * Runs Debian's OpenStack clients (/usr/bin/baremetal, /usr/bin/openstack, /usr/bin/python3 with
 * openstacksdk) against a target with noauth, each with a scratch HOME (ironicclient caches
 * negotiated versions there).
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

const scratchHome = fs.mkdtempSync(path.join(os.tmpdir(), 'ironic-compat-home-'));

function run(file: string, args: string[], env: Record<string, string> = {}, input?: string): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = execFile(
      file,
      args,
      { env: { PATH: '/usr/bin:/bin', HOME: scratchHome, LANG: 'C.UTF-8', ...env }, timeout: 120000, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err ? (typeof (err as NodeJS.ErrnoException).code === 'number' ? Number((err as NodeJS.ErrnoException).code) : 1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}

/** `baremetal ARGS` against url; pass `-f json` yourself where the output is parsed. */
export function baremetal(url: string, args: string[], apiVersion?: string): Promise<RunResult> {
  const versionArgs = apiVersion ? ['--os-baremetal-api-version', apiVersion] : [];
  return run('/usr/bin/baremetal', ['--os-endpoint', url, '--os-auth-type', 'none', ...versionArgs, ...args]);
}

/** `openstack baremetal ARGS` against url. */
export function openstack(url: string, args: string[], apiVersion?: string): Promise<RunResult> {
  const versionArgs = apiVersion ? ['--os-baremetal-api-version', apiVersion] : [];
  return run('/usr/bin/openstack', ['--os-endpoint', url, '--os-auth-type', 'none', ...versionArgs, ...args]);
}

/** Runs a Python script (given as text) with the target URL in IRONIC_URL; its stdout is returned. */
export function python(script: string, url: string): Promise<RunResult> {
  return run('/usr/bin/python3', ['-'], { IRONIC_URL: url }, script);
}

/** Parses `-f json` output, failing the test with the command's stderr when it is not JSON. */
export function parseJson<T = unknown>(result: RunResult): T {
  if (result.code !== 0) throw new Error(`command failed (${result.code}): ${result.stderr}`);
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new Error(`not JSON: ${result.stdout.slice(0, 500)}\n${result.stderr}`);
  }
}
