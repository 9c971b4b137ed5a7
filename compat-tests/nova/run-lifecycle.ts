/**
 * Runs nova_lifecycle.py (Debian's Nova ironic virt driver) against a target and returns its step results.
 * The script needs the server's SQLite file (the stored configdrive is masked in the API) and a scratch
 * folder for nova.conf and Nova's own SQLite databases.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ensureDebian13, inDebian13 } from '../support/debian13-root';

export interface NodeView {
  provision_state: string | null;
  target_provision_state: string | null;
  power_state: string | null;
  target_power_state: string | null;
  instance_uuid: string | null;
  instance_info: Record<string, unknown>;
  last_error: string | null;
  console_enabled: boolean;
  maintenance: boolean;
  traits: string[];
}

/** One step: ok=false carries the exception Nova's driver raised where none was expected. */
export interface StepResult {
  ok: boolean;
  seconds: number;
  error?: string;
  message?: string;
  trace?: string;
  [key: string]: unknown;
}

export type LifecycleResults = Record<string, StepResult>;

export class LifecycleScriptError extends Error {}

const REPO = path.resolve(__dirname, '..', '..', '..');
/** Where the Nova scripts are (nova_env.py, ironic_http.py and the drivers of the driver). */
export const SCRIPT_DIR = path.join(REPO, 'compat-tests', 'nova');
const SCRIPT = path.join(SCRIPT_DIR, 'nova_lifecycle.py');

/** Which Nova: Debian 12's (26, python-ironicclient) on this machine or Debian 13's (31, openstacksdk) in its root. */
export type NovaRelease = 'nova-26' | 'nova-31';

/** The Python command for a release; Nova 31 runs in the Debian 13 root with the folders it reads bound in. */
export function pythonCommand(release: NovaRelease, binds: string[], script = SCRIPT): [string, string[]] {
  if (release === 'nova-26') return ['/usr/bin/python3', [script]];
  return inDebian13(binds, '/usr/bin/python3', [script]);
}

/** The scripts' environment: a scratch HOME (ironicclient and openstacksdk cache discovery data there), no __pycache__ in the tree. */
export function scriptEnv(work: string, env: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: '/usr/bin:/bin:/usr/sbin:/sbin', HOME: work, LANG: 'C.UTF-8', PYTHONDONTWRITEBYTECODE: '1', ...env };
}

/** Builds (first time) the Debian 13 root with Nova 31 and the ISO tool its config drive needs. */
export function prepareNova(release: NovaRelease): Promise<void> {
  return release === 'nova-26' ? Promise.resolve() : ensureDebian13(['python3-nova', 'genisoimage', 'python3-requests']);
}

export async function runLifecycle(url: string, ironicDb: string, release: NovaRelease = 'nova-26'): Promise<LifecycleResults> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'nova-compat-'));
  try {
    const command = pythonCommand(release, [work, SCRIPT_DIR, path.dirname(ironicDb)]);
    const { stdout, stderr, code } = await runPython(command, work, {
      IRONIC_URL: url,
      IRONIC_DB: ironicDb,
      NOVA_WORKDIR: path.join(work, 'nova'),
    });
    const lastLine = stdout.trim().split('\n').pop() ?? '';
    if (code !== 0 || !lastLine.startsWith('{')) {
      throw new LifecycleScriptError(`nova_lifecycle.py exited ${code}:\n${stderr.slice(-4000)}`);
    }
    return JSON.parse(lastLine) as LifecycleResults;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function runPython([file, args]: [string, string[]], work: string, env: Record<string, string>): Promise<{ stdout: string; stderr: string; code: number }> {
  fs.mkdirSync(env.NOVA_WORKDIR, { recursive: true });
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      {
        env: scriptEnv(work, env),
        timeout: 240000,
        maxBuffer: 64 * 1024 * 1024,
      },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolve({ stdout: String(stdout), stderr: String(stderr), code });
      },
    );
  });
}
