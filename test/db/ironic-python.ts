/**
 * Drives the real Python Ironic 21.4.4 (/usr/bin/python3) for compatibility tests: a small script
 * that runs Ironic's schema sync and writes/reads rows through Ironic's own DB API.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const PYTHON = '/usr/bin/python3';
const ROWS_SCRIPT = resolve(__dirname, '../../../test/db/fixtures/ironic_rows.py');

export async function ironicAvailable(): Promise<boolean> {
  if (!existsSync(PYTHON)) return false;
  return run(PYTHON, ['-c', 'import ironic, pymysql']).then(() => true, () => false);
}

function configFor(dir: string, url: string): string {
  mkdirSync(join(dir, 'home'), { recursive: true });
  // Python Ironic does not create the SQLite file's directory.
  const sqlite = /^sqlite:\/\/\/(.+)$/.exec(url);
  if (sqlite) mkdirSync(dirname(sqlite[1]), { recursive: true });
  const file = join(dir, 'ironic.conf');
  writeFileSync(file, `[DEFAULT]\nstate_path = ${dir}\n[database]\nconnection = ${url}\n`);
  return file;
}

function pyEnv(dir: string): NodeJS.ProcessEnv {
  return { ...process.env, HOME: join(dir, 'home') };
}

/** Ironic wants exactly the pymysql driver. */
function pythonUrl(url: string): string {
  return url.replace(/^mysql(\+\w+)?:/, 'mysql+pymysql:');
}

export type IronicAction = 'create_schema' | 'upgrade' | 'write' | 'read';

/** Runs the actions in order in one Python process (Ironic's import time dominates). */
export async function ironicRows(dir: string, url: string, ...actions: IronicAction[]): Promise<string> {
  const action = actions.join(',');
  const conf = configFor(dir, pythonUrl(url));
  try {
    const { stdout } = await run(PYTHON, [ROWS_SCRIPT, conf, action], { env: pyEnv(dir), timeout: 120000 });
    return stdout;
  } catch (err) {
    const e = err as Error & { stderr?: string };
    throw new Error(`ironic_rows.py ${action} failed: ${String(e.stderr ?? e.message).slice(-2000)}`);
  }
}
