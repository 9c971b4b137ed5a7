/**
 * Runs nova_lifecycle.py (Debian's Nova ironic virt driver) against a target and returns its step results.
 * The script needs the server's SQLite file (the stored configdrive is masked in the API) and a scratch
 * folder for nova.conf and Nova's own SQLite databases.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

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

const SCRIPT = path.resolve(__dirname, '..', '..', '..', 'compat-tests', 'nova', 'nova_lifecycle.py');

export async function runLifecycle(url: string, ironicDb: string): Promise<LifecycleResults> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'nova-compat-'));
  try {
    const { stdout, stderr, code } = await runPython(work, {
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

function runPython(work: string, env: Record<string, string>): Promise<{ stdout: string; stderr: string; code: number }> {
  fs.mkdirSync(env.NOVA_WORKDIR, { recursive: true });
  return new Promise((resolve) => {
    execFile(
      '/usr/bin/python3',
      [SCRIPT],
      {
        // A scratch HOME (ironicclient and openstacksdk cache discovery data there); no __pycache__ in the tree.
        env: { PATH: '/usr/bin:/bin:/usr/sbin:/sbin', HOME: work, LANG: 'C.UTF-8', PYTHONDONTWRITEBYTECODE: '1', ...env },
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
