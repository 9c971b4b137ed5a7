/**
 * Lab mode's dnsmasq: the conductor writes its configuration (the provisioning interface, a DHCP
 * range, the host and option directories the `dnsmasq` provider fills, defaults for unknown hosts)
 * and runs it in the foreground as a child, restarting it when it dies, until stopped.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { log } from '../common/log';
import type { DnsmasqConf } from './dnsmasq';
import { renderDnsmasqConf } from './dnsmasq-conf';

export interface DnsmasqSupervisorOptions {
  binary: string;
  interface: string;
  dhcpRange: string;
  dirs: Required<DnsmasqConf>;
  /** Boot files for hosts without a per-node entry (inspection of unknown machines). */
  defaultBoot: { bios: string; uefi: string; ipxe_script_url: string; tftp_server: string };
}

export interface DnsmasqSupervisor {
  /** The running dnsmasq's pid, if it runs. */
  pid(): number | undefined;
  stop(): Promise<void>;
}

const RESTART_DELAY_MS = 2000;

async function writeConf(o: DnsmasqSupervisorOptions): Promise<string> {
  const dir = path.dirname(o.dirs.pid_file);
  await fsp.mkdir(dir, { recursive: true });
  await fsp.mkdir(o.dirs.dhcp_hostsdir, { recursive: true });
  await fsp.mkdir(o.dirs.dhcp_optsdir, { recursive: true });
  const file = path.join(dir, 'dnsmasq.conf');
  const text = renderDnsmasqConf({
    ...o.dirs, interface: o.interface, dhcp_range: o.dhcpRange, default_boot: o.defaultBoot,
  }) + `pid-file=${o.dirs.pid_file}\nlog-dhcp\n`;
  await fsp.writeFile(file, text, { mode: 0o644 });
  return file;
}

function waitForStart(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null): void => reject(new Error(`dnsmasq exited at start (status ${code}); see the log`));
    child.once('exit', onExit);
    child.once('error', reject);
    // dnsmasq validates its configuration and binds before it logs "started".
    const timer = setTimeout(() => { child.off('exit', onExit); resolve(); }, 500);
    timer.unref();
  });
}

export async function startDnsmasqSupervisor(o: DnsmasqSupervisorOptions): Promise<DnsmasqSupervisor> {
  const confFile = await writeConf(o);
  let child: ChildProcess | undefined;
  let stopping = false;
  let started = false;
  let restartTimer: NodeJS.Timeout | undefined;

  const launch = (): ChildProcess => {
    const c = spawn(o.binary, ['--keep-in-foreground', '--log-facility=-', `--conf-file=${confFile}`], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    c.stderr?.setEncoding('utf8').on('data', (text: string) => {
      for (const line of text.split('\n')) {
        if (!line.trim()) continue;
        // dnsmasq runs as nobody once started: unreadable directories only show up in its log.
        if (/bad |failed|cannot|denied|illegal/i.test(line)) log.warning(`dnsmasq: ${line}`);
        else log.debug(`dnsmasq: ${line}`);
      }
    });
    c.on('exit', (code, signal) => {
      if (stopping || !started || child !== c) return;
      log.error(`dnsmasq on ${o.interface} exited (${signal ?? `status ${code}`}); restarting in ${RESTART_DELAY_MS / 1000} s`);
      restartTimer = setTimeout(() => { child = launch(); }, RESTART_DELAY_MS);
    });
    return c;
  };

  child = launch();
  try {
    await waitForStart(child);
  } catch (err) {
    stopping = true;
    throw err;
  }
  started = true;
  log.info(`dnsmasq serving DHCP on ${o.interface} (${o.dhcpRange}), pid ${child.pid}`);
  return {
    pid: () => child?.pid,
    async stop() {
      stopping = true;
      clearTimeout(restartTimer);
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      await new Promise<void>((resolve) => {
        c.once('exit', () => resolve());
        c.kill('SIGTERM');
      });
    },
  };
}
