/**
 * The machine's MariaDB (127.0.0.1:3306, root without password): scratch databases, and stopping
 * and starting the server itself for outage tests. Callers must always call ensureMariaDbRunning()
 * afterwards, other tests and CI need the server.
 */
import { execFileSync } from 'node:child_process';
import { sleep, waitForPort } from './ports';

const MARIADB_PORT = 3306;
const CLIENT = '/usr/bin/mariadb';
const SERVER = '/usr/sbin/mariadbd';

export class MariaDbControlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MariaDbControlError';
  }
}

/** Runs SQL with the command-line client; returns its tab-separated output without headers. */
export function sql(statement: string, database?: string): string {
  const args = ['-uroot', '-h127.0.0.1', '-N', '-B', ...(database ? [database] : []), '-e', statement];
  return execFileSync(CLIENT, args, { encoding: 'utf8', timeout: 30000 });
}

export function createDatabase(name: string): string {
  sql(`CREATE DATABASE \`${name}\``);
  return `mysql+pymysql://root@127.0.0.1:${MARIADB_PORT}/${name}`;
}

export function dropDatabase(name: string): void {
  sql(`DROP DATABASE IF EXISTS \`${name}\``);
}

export function mariaDbPids(): number[] {
  try {
    return execFileSync('pidof', ['mariadbd'], { encoding: 'utf8' }).trim().split(/\s+/).map(Number).filter((n) => n > 0);
  } catch {
    return []; // pidof exits 1 when nothing runs
  }
}

/** SIGTERM (a real stop, unlike SIGSTOP), then waits until the process and its port are gone. */
export async function stopMariaDb(timeoutMs = 30000): Promise<void> {
  for (const pid of mariaDbPids()) process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + timeoutMs;
  while (mariaDbPids().length) {
    if (Date.now() > deadline) throw new MariaDbControlError('mariadbd did not exit after SIGTERM');
    await sleep(200);
  }
  await waitForPort(MARIADB_PORT, 'closed', 5000);
}

/** Starts mariadbd when it is not running and waits until it answers queries. */
export async function ensureMariaDbRunning(timeoutMs = 60000): Promise<void> {
  if (!mariaDbPids().length) {
    execFileSync('start-stop-daemon', ['--start', '--oknodo', '--background', '--exec', SERVER], { timeout: 10000 });
  }
  await waitForPort(MARIADB_PORT, 'open', timeoutMs);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      sql('SELECT 1');
      return;
    } catch (err) {
      if (Date.now() > deadline) throw new MariaDbControlError(`mariadbd does not answer: ${(err as Error).message}`);
      await sleep(300);
    }
  }
}
