/**
 * console_utils' Shell In A Box console: `[console]terminal` (shellinaboxd) serving the console
 * command in a browser page on <port>, over HTTPS with the certificate in `[console]terminal_cert_dir`
 * or plain HTTP (-t) without one; it daemonizes itself with its pid in the console pid file. The
 * URL is http(s)://[DEFAULT]my_ip:<port>.
 */
import { spawn } from 'node:child_process';
import * as net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../../conf/config';
import { ConsoleSubprocessFailed } from '../../common/errors';
import { log } from '../../common/log';
import { consolePid, ensurePidDir, pidFile, processAlive, stopConsoleProcess } from './console-process';

/** get_shellinabox_console_url. */
export function shellinaboxConsoleUrl(conf: Config, port: number): string {
  const host = conf.str('DEFAULT', 'my_ip');
  const scheme = conf.optStr('console', 'terminal_cert_dir') ? 'https' : 'http';
  return `${scheme}://${net.isIPv6(host) ? `[${host}]` : host}:${port}`;
}

interface Exit {
  code: number | null;
  output: string;
}

/**
 * Runs shellinaboxd, which forks its daemon and exits 0; its output when it fails. The daemon keeps
 * the pipes open, so the launcher's exit (not the pipes' end) decides, and the pipes are let go.
 */
function launch(args: string[], env: Record<string, string>): Promise<Exit> {
  return new Promise((resolve) => {
    const child = spawn(args[0], args.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let output = '';
    child.stdout.on('data', (d: Buffer) => { output += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { output += d.toString(); });
    child.once('error', (err) => resolve({ code: -1, output: err.message }));
    child.once('exit', (code) => {
      // What a failing launcher printed arrives with its exit; give the pipes a moment, then drop them.
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        resolve({ code, output });
      }, 100);
    });
  });
}

/** start_shellinabox_console: `consoleCmd` is shellinaboxd's service (-s) line. */
export async function startShellinaboxConsole(conf: Config, nodeUuid: string, port: number, consoleCmd: string,
  env: Record<string, string> = {}): Promise<void> {
  await stopConsoleProcess(conf, nodeUuid);
  await ensurePidDir(conf);
  const file = pidFile(conf, nodeUuid);
  const certDir = conf.optStr('console', 'terminal_cert_dir');
  const args = [conf.str('console', 'terminal'), ...(certDir ? ['-c', certDir] : ['-t']), '-p', String(port),
    `--background=${file}`, '-s', consoleCmd];
  log.debug(`Running subprocess: ${args.join(' ')}`);
  const exit = await launch(args, env);
  const deadline = Date.now() + conf.int('console', 'subprocess_timeout') * 1000;
  while (exit.code === 0 && Date.now() < deadline) {
    const pid = await consolePid(file);
    if (pid !== null && processAlive(pid)) return;
    await sleep(100);
  }
  const text = exit.code === 0
    ? `Timeout or error while waiting for console subprocess to start for node: ${nodeUuid}.\nCommand: ${args.join(' ')}.\n`
    : `Command: ${args.join(' ')}.\nExit code: ${String(exit.code)}.\nStdout/Stderr: ${JSON.stringify(exit.output)}`;
  log.error(text);
  throw new ConsoleSubprocessFailed({ error: text });
}

/** stop_shellinabox_console: a missing pid file is only logged. */
export async function stopShellinaboxConsole(conf: Config, nodeUuid: string): Promise<void> {
  if (!await stopConsoleProcess(conf, nodeUuid)) {
    log.warning(`No console pid found for node ${nodeUuid} while trying to stop shellinabox console.`);
  }
}
