/**
 * What Ironic's console_utils does for every console program (socat, shellinaboxd): the pid file
 * in `<[console]terminal_pid_dir or [DEFAULT]tempdir>/<node>.pid`, and stopping the program with
 * SIGTERM, then SIGKILL after `[console]kill_timeout`.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../../conf/config';
import { ConsoleError } from '../../common/errors';
import { log } from '../../common/log';

function pidDir(conf: Config): string {
  return conf.optStr('console', 'terminal_pid_dir') || conf.str('DEFAULT', 'tempdir');
}

export function pidFile(conf: Config, nodeUuid: string): string {
  return path.join(pidDir(conf), `${nodeUuid}.pid`);
}

/** _ensure_console_pid_dir_exists. */
export async function ensurePidDir(conf: Config): Promise<string> {
  try {
    await fsp.mkdir(pidDir(conf), { recursive: true });
  } catch (err) {
    throw new ConsoleError(`Cannot create directory '${pidDir(conf)}' for console PID file. Reason: ${(err as Error).message}.`);
  }
  return pidDir(conf);
}

export async function consolePid(file: string): Promise<number | null> {
  try {
    const pid = Number.parseInt((await fsp.readFile(file, 'utf8')).split('\n')[0], 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** _stop_console: false when there was no pid file (NoConsolePid). */
export async function stopConsoleProcess(conf: Config, nodeUuid: string): Promise<boolean> {
  const file = pidFile(conf, nodeUuid);
  const pid = await consolePid(file);
  try {
    if (pid === null) return false;
    try {
      process.kill(pid, 'SIGTERM');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ESRCH') {
        throw new ConsoleError(`Could not stop the console for node '${nodeUuid}'. Reason: ${(err as Error).message}.`);
      }
      log.warning(`Console process for node ${nodeUuid} is not running but pid file exists.`);
      return true;
    }
    const attempts = Math.floor(conf.int('console', 'kill_timeout') / 0.2);
    for (let attempt = 0; attempt < attempts && processAlive(pid); attempt += 1) {
      if (attempt === attempts - 1) process.kill(pid, 'SIGKILL');
      await sleep(200);
    }
    return true;
  } finally {
    await fsp.rm(file, { force: true });
  }
}
