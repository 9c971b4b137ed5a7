/**
 * console_utils' socat console: `socat` listening on `[console]socat_address`:<port> (one client at a
 * time, `-T[console]terminal_timeout` of inactivity) with the console command on a pty, its pid in
 * `<[console]terminal_pid_dir or [DEFAULT]tempdir>/<node>.pid` (socat's -L lock file), started
 * within `[console]subprocess_timeout` and stopped with SIGTERM, then SIGKILL after
 * `[console]kill_timeout`. socat outlives the conductor process, as it does under Ironic.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { promises as fsp } from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../../conf/config';
import { ConsoleSubprocessFailed } from '../../common/errors';
import { consolePid, ensurePidDir, pidFile, processAlive, stopConsoleProcess } from './console-process';
import { log } from '../../common/log';

/** get_socat_console_url. */
export function socatConsoleUrl(conf: Config, port: number): string {
  const host = conf.str('console', 'socat_address');
  return `tcp://${net.isIPv6(host) ? `[${host}]` : host}:${port}`;
}

/** start_socat_console: `consoleCmd` is the command line socat runs on a pty for each client. */
export async function startSocatConsole(conf: Config, nodeUuid: string, port: number, consoleCmd: string,
  env: Record<string, string> = {}): Promise<void> {
  await stopConsoleProcess(conf, nodeUuid);
  await ensurePidDir(conf);
  const file = pidFile(conf, nodeUuid);
  const host = conf.str('console', 'socat_address');
  const args = ['socat'];
  const timeout = conf.int('console', 'terminal_timeout');
  if (timeout > 0) args.push(`-T${timeout}`);
  args.push(`-L${file}`);
  args.push(net.isIPv6(host)
    ? `TCP6-LISTEN:${port},bind=[${host}],reuseaddr,fork,max-children=1`
    : `TCP4-LISTEN:${port},bind=${host},reuseaddr,fork,max-children=1`);
  args.push(`EXEC:"${consoleCmd}",pty,stderr`);
  log.debug(`Running subprocess: ${args.join(' ')}`);
  // socat's own messages go to a file beside the pid file: a pipe nobody reads once the conductor
  // moves on (or restarts) would block or kill it.
  const errFile = path.join(await ensurePidDir(conf), `${nodeUuid}.socat.log`);
  const errFd = openSync(errFile, 'w', 0o600);
  let child: ChildProcess;
  try {
    child = spawn(args[0], args.slice(1), { detached: true, stdio: ['ignore', 'ignore', errFd], env: { ...process.env, ...env } });
  } finally {
    closeSync(errFd);
  }
  const exited = new Promise<number | null>((resolve) => {
    child.once('error', () => resolve(-1));
    child.once('exit', (code) => resolve(code));
  });
  const failure = await waitStarted(conf, file, exited, nodeUuid, args);
  child.unref();
  if (failure !== null) {
    const text = failure(await fsp.readFile(errFile, 'utf8').catch(() => ''));
    log.error(text);
    throw new ConsoleSubprocessFailed({ error: text });
  }
}

/** null once socat has written its pid file and runs, else the failure's text (given socat's stderr). */
async function waitStarted(conf: Config, file: string, exited: Promise<number | null>, nodeUuid: string,
  args: string[]): Promise<((stderr: string) => string) | null> {
  const deadline = Date.now() + conf.int('console', 'subprocess_timeout') * 1000;
  let exitCode: number | null | undefined;
  void exited.then((code) => { exitCode = code; });
  for (;;) {
    await sleep(100);
    if (exitCode !== undefined) {
      return (stderr) => `Command: ${args.join(' ')}.\nExit code: ${String(exitCode)}.\nStderr: ${JSON.stringify(stderr)}`;
    }
    const pid = await consolePid(file);
    if (pid !== null && processAlive(pid)) return null;
    if (Date.now() > deadline) return () => `Timeout while waiting for console subprocess to start for node ${nodeUuid}.`;
  }
}

/** stop_socat_console: a missing pid file is only logged. */
export async function stopSocatConsole(conf: Config, nodeUuid: string): Promise<void> {
  if (!await stopConsoleProcess(conf, nodeUuid)) {
    log.warning(`No console pid found for node ${nodeUuid} while trying to stop socat console.`);
  }
}
