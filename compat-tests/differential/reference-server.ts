// Starts the real Ironic 21.4.4 through the shared start.sh script.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { killGroup, readTail, removeDir, ServerStartError, type ServerHandle } from './server-handle';

export const REFERENCE_START_SCRIPT = '/work/shared/reference-ironic/start.sh';
const START_TIMEOUT_MS = 120_000;

export function referenceAvailable(): boolean {
  return fs.existsSync(REFERENCE_START_SCRIPT);
}

export async function startReference(label: string, port: number): Promise<ServerHandle> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'difftest-ref-'));
  const logPath = path.join(dir, 'ironic.log');
  try {
    await runScript(dir, port);
  } catch (err) {
    await stopPidFile(dir);
    const tail = readTail(logPath);
    if (process.env['DIFFTEST_KEEP_DIRS'] === undefined) removeDir(dir);
    throw new ServerStartError(label, `${(err as Error).message}\n${tail}`);
  }
  return {
    label,
    port,
    dir,
    logPath,
    stop: async () => {
      await stopPidFile(dir);
      if (process.env['DIFFTEST_KEEP_DIRS'] === undefined) removeDir(dir);
    },
  };
}

function runScript(dir: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('/bin/bash', [REFERENCE_START_SCRIPT, dir, String(port)], { timeout: START_TIMEOUT_MS }, (err, _out, stderr) => {
      if (err) reject(new Error(`${err.message} ${stderr}`.trim()));
      else resolve();
    });
  });
}

async function stopPidFile(dir: string): Promise<void> {
  const pidFile = path.join(dir, 'ironic.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
  // start.sh launches Ironic under setsid, so the pid leads its own process group.
  if (Number.isInteger(pid) && pid > 1) await killGroup(pid);
}
