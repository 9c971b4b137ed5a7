/**
 * The reference OpenStack Ironic the compat-tests compare ironic-ts with, started by the project's
 * own launcher (scripts/reference-ironic/start.sh, found relative to this file). Every test and
 * bench that needs the reference starts it here.
 *
 * Releases: '2023.1' (Ironic 21.4.4, the default) or '2025.1' (Ironic 29.0.5, in the Debian 13 root
 * the launcher builds on first use, in $IRONIC_TS_CACHE_DIR). The release is the option's, else
 * IRONIC_REFERENCE_RELEASE's.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { killGroup } from './process-group';

const REPO = path.resolve(__dirname, '..', '..', '..');
export const REFERENCE_LAUNCHER = path.join(REPO, 'scripts', 'reference-ironic', 'start.sh');

export const REFERENCE_RELEASES = ['2023.1', '2025.1'] as const;
export type ReferenceRelease = (typeof REFERENCE_RELEASES)[number];
/** The Ironic version each release's Debian package carries. */
export const IRONIC_VERSION: Readonly<Record<ReferenceRelease, string>> = { '2023.1': '21.4.4', '2025.1': '29.0.5' };
/** The release ironic-ts answers like; an older reference is compared where 29.0.5 did not change behaviour. */
export const CURRENT_RELEASE: ReferenceRelease = '2025.1';

/** The first 2025.1 start builds the Debian 13 root (minutes); later starts take seconds. */
const LAUNCH_TIMEOUT_MS = 15 * 60_000;
const LOGS = ['dbsync.log', 'stdout.log', 'ironic.log'];

export interface ReferenceOptions {
  /** Scratch directory for the reference's config, logs and state; the caller owns it. */
  dir: string;
  port: number;
  /** SQLAlchemy URL; the launcher's default is SQLite in dir. */
  dbUrl?: string;
  release?: ReferenceRelease;
  /** Extra environment, e.g. OS_<GROUP>__<OPTION> overrides read by oslo.config. */
  env?: Readonly<Record<string, string>>;
}

export interface ReferenceIronic {
  url: string;
  release: ReferenceRelease;
  /** Leader of the reference's own process group. */
  pid: number;
  /** Stops the whole process group; the directory is left to the caller. */
  stop(): Promise<void>;
}

export class ReferenceStartError extends Error {
  constructor(message: string, readonly logs: string) {
    super(`${message}\n${logs}`);
    this.name = 'ReferenceStartError';
  }
}

export function referenceRelease(requested?: ReferenceRelease): ReferenceRelease {
  if (requested !== undefined) return requested;
  const fromEnv = process.env['IRONIC_REFERENCE_RELEASE'];
  if (fromEnv === undefined || fromEnv === '') return '2023.1';
  const known = REFERENCE_RELEASES.find((r) => r === fromEnv);
  if (known === undefined) throw new Error(`IRONIC_REFERENCE_RELEASE must be one of ${REFERENCE_RELEASES.join(', ')}, not '${fromEnv}'`);
  return known;
}

/** Runs the launcher; resolves once the reference answers, rejects with its logs otherwise. */
export async function startReferenceIronic(opts: ReferenceOptions): Promise<ReferenceIronic> {
  const release = referenceRelease(opts.release);
  const args = [REFERENCE_LAUNCHER, opts.dir, String(opts.port), ...(opts.dbUrl === undefined ? [] : [opts.dbUrl])];
  const env = { ...process.env, ...opts.env, IRONIC_REFERENCE_RELEASE: release };
  try {
    await launch(args, env);
  } catch (err) {
    await stopPidFile(opts.dir);
    throw new ReferenceStartError(`reference Ironic ${release} did not start: ${(err as Error).message}`, logTails(opts.dir));
  }
  const pid = readPid(opts.dir);
  if (pid === 0) throw new ReferenceStartError(`the launcher left no pid in ${opts.dir}/ironic.pid`, logTails(opts.dir));
  return { url: `http://127.0.0.1:${opts.port}`, release, pid, stop: () => killGroup(pid) };
}

function launch(args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('/bin/bash', args, { env, timeout: LAUNCH_TIMEOUT_MS }, (err, _out, stderr) => {
      if (err) reject(new Error(`${err.message} ${stderr}`.trim()));
      else resolve();
    });
  });
}

function readPid(dir: string): number {
  const file = path.join(dir, 'ironic.pid');
  const pid = fs.existsSync(file) ? Number(fs.readFileSync(file, 'utf8').trim()) : NaN;
  return Number.isInteger(pid) && pid > 1 ? pid : 0;
}

/** A launch that failed half-way may have left Ironic running: stop what the pid file names. */
async function stopPidFile(dir: string): Promise<void> {
  const pid = readPid(dir);
  if (pid > 0) await killGroup(pid);
}

function logTails(dir: string): string {
  return LOGS.map((name) => path.join(dir, name))
    .filter((file) => fs.existsSync(file))
    .map((file) => `--- ${path.basename(file)}\n${fs.readFileSync(file, 'utf8').slice(-1500)}`)
    .join('\n');
}
