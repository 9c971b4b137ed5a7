/**
 * The two servers of the switch-over, both on one MariaDB database: a reference Ironic
 * (support/reference-ironic.ts, the release the test names, whatever IRONIC_REFERENCE_RELEASE says)
 * and ironic-ts with an ironic.conf whose [database]connection is that same URL.
 */
import { spawn, execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startReferenceIronic, type ReferenceRelease } from '../support/reference-ironic';
import { referenceLikeConf, stopProcess } from '../support/target';

const REPO = path.resolve(__dirname, '..', '..', '..');
const DIST_CMD = path.join(REPO, 'dist', 'src', 'cmd');

export class ServerStartError extends Error {
  constructor(message: string, readonly output: string) {
    super(`${message}\n${output.slice(-3000)}`);
    this.name = 'ServerStartError';
  }
}

export interface Running { url: string; stop(): Promise<void> }

export async function startReference(release: ReferenceRelease, dir: string, port: number, dbUrl: string): Promise<Running> {
  const server = await startReferenceIronic({ dir, port, dbUrl, release });
  return { url: server.url, stop: server.stop };
}

/** The test suite's usual ironic.conf, but on the MariaDB database instead of SQLite. */
export function writeIronicTsConf(dir: string, port: number, dbUrl: string): string {
  const file = path.join(dir, 'ironic.conf');
  fs.mkdirSync(path.join(dir, 'state'), { recursive: true });
  fs.writeFileSync(file, referenceLikeConf(dir, port).replace(/^connection = .*$/m, `connection = ${dbUrl}`));
  return file;
}

export function dbsync(conf: string, command = 'upgrade'): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [path.join(DIST_CMD, 'ironic-dbsync.js'), '--config-file', conf, command], { timeout: 120000 },
      (err, stdout, stderr) => (err ? reject(new ServerStartError(`ironic-dbsync ${command} failed`, `${stdout}${stderr}`)) : resolve(stdout)));
  });
}

export type IronicTsStart = { kind: 'ready'; server: Running } | { kind: 'exited'; code: number | null; output: string };

/** Starts `ironic` (API + conductor); resolves when /v1 answers or when the process exits first. */
export async function startIronicTs(dir: string, conf: string, port: number): Promise<IronicTsStart> {
  const logFile = path.join(dir, `ironic-ts-${port}-${Date.now()}.log`);
  const log = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, [path.join(DIST_CMD, 'ironic.js'), '--config-file', conf], { stdio: ['ignore', log, log] });
  fs.closeSync(log);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) return { kind: 'exited', code: child.exitCode, output: fs.readFileSync(logFile, 'utf8') };
    try {
      if ((await fetch(`${url}/v1`)).ok) return { kind: 'ready', server: { url, stop: () => stopProcess(child) } };
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  await stopProcess(child);
  throw new ServerStartError(`ironic-ts did not become ready at ${url}`, fs.readFileSync(logFile, 'utf8'));
}

