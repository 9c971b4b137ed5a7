// Starts ironic-ts (dist/src/cmd/ironic.js) with an ironic.conf equivalent to the reference's.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { sendRaw } from './http-client';
import { referenceLikeConf } from '../support/target';
import { killGroup } from '../support/process-group';
import { readTail, removeDir, ServerStartError, type ServerHandle } from './server-handle';
import { DIFFERENTIAL_HEARTBEAT_TIMEOUT } from './reference-server';

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
export const CANDIDATE_ENTRY = path.join(REPO_ROOT, 'dist', 'src', 'cmd', 'ironic.js');
const DBSYNC_ENTRY = path.join(REPO_ROOT, 'dist', 'src', 'cmd', 'ironic-dbsync.js');
const READY_TIMEOUT_MS = 60_000;

export function candidateAvailable(): boolean {
  return fs.existsSync(CANDIDATE_ENTRY);
}

/**
 * Same options, in the same sections, as start.sh writes for the reference (including `host = reference`),
 * plus the heartbeat timeout the reference gets (the conf ends in [conductor]).
 */
export function ironicConf(dir: string, port: number): string {
  return `${referenceLikeConf(dir, port, `log_file = ${dir}/ironic.log`)}heartbeat_timeout = ${DIFFERENTIAL_HEARTBEAT_TIMEOUT}\n`;
}

export async function startCandidate(label: string, port: number): Promise<ServerHandle> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'difftest-ts-'));
  fs.mkdirSync(path.join(dir, 'state'));
  fs.mkdirSync(path.join(dir, 'locks'));
  const confPath = path.join(dir, 'ironic.conf');
  fs.writeFileSync(confPath, ironicConf(dir, port));
  maybeDbSync(confPath, dir);
  const out = fs.openSync(path.join(dir, 'stdout.log'), 'w');
  const child = spawn(process.execPath, [CANDIDATE_ENTRY, '--config-file', confPath], {
    cwd: REPO_ROOT,
    detached: true,
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  const pid = child.pid;
  const stop = async (): Promise<void> => {
    if (pid !== undefined) await killGroup(pid);
    if (process.env['DIFFTEST_KEEP_DIRS'] === undefined) removeDir(dir);
  };
  let exited = false;
  child.once('exit', () => (exited = true));
  const ready = await waitReady(port, () => exited);
  if (!ready) {
    const tail = readTail(path.join(dir, 'stdout.log'));
    await stop();
    throw new ServerStartError(label, `not ready on port ${port} within ${READY_TIMEOUT_MS} ms${exited ? ' (process exited)' : ''}\n${tail}`);
  }
  return { label, port, dir, logPath: path.join(dir, 'ironic.log'), stop };
}

/** If ironic-ts ships a dbsync command, run it like start.sh runs ironic-dbsync; the server may also self-migrate. */
function maybeDbSync(confPath: string, dir: string): void {
  if (!fs.existsSync(DBSYNC_ENTRY)) return;
  const r = spawnSync(process.execPath, [DBSYNC_ENTRY, '--config-file', confPath, 'upgrade'], { cwd: REPO_ROOT, timeout: 60_000 });
  fs.writeFileSync(path.join(dir, 'dbsync.log'), `${r.stdout?.toString() ?? ''}${r.stderr?.toString() ?? ''}`);
}

/** Ready = the same probe start.sh uses: /v1 answers and the driver list shows fake-hardware. */
async function waitReady(port: number, hasExited: () => boolean): Promise<boolean> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline && !hasExited()) {
    const v1 = await sendRaw({ port, method: 'GET', path: '/v1', headers: {} });
    if (v1.status === 200) {
      const drivers = await sendRaw({ port, method: 'GET', path: '/v1/drivers', headers: { 'X-OpenStack-Ironic-API-Version': '1.82' } });
      if (drivers.status === 200 && drivers.bodyText.includes('fake-hardware')) return true;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}
