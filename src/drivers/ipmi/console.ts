/**
 * The ipmitool consoles (IPMIConsole and its two kinds), the node's serial-over-LAN console on
 * <ipmi_terminal_port, or a port of [console]port_range>, running `ipmitool ... sol activate`:
 * - ipmitool-socat (IPMISocatConsole): socat on `[console]socat_address`, for the one client it
 *   accepts at a time; get_console answers {"type": "socat", "url": "tcp://<socat_address>:<port>"},
 *   any SOL session left open deactivated first, as Ironic does, so the next `sol activate` succeeds;
 * - ipmitool-shellinabox (IPMIShellinaboxConsole, deprecated upstream with Shell In A Box but still
 *   in 29.0.5): shellinaboxd's page at http(s)://[DEFAULT]my_ip:<port>; get_console answers
 *   {"type": "shellinabox", "url": ...}.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { InvalidParameterValue, MissingParameterValue, PasswordFileFailedToCreate } from '../../common/errors';
import { log } from '../../common/log';
import * as ipmi from '../../protocols/ipmi';
import type { ConsoleInterface, DriverTask } from '../base';
import { acquirePort, releasePort } from '../console/terminal-ports';
import { shellinaboxConsoleUrl, startShellinaboxConsole, stopShellinaboxConsole } from '../console/shellinabox';
import { socatConsoleUrl, startSocatConsole, stopSocatConsole } from '../console/socat';
import type { Config } from '../../conf/config';
import { IPMI_PROPERTIES, ipmiCall, parseIpmiDriverInfo, type IpmiDriverInfo } from './common';

const CONSOLE_PROPERTIES = { ipmi_terminal_port: "node's UDP port to connect to. Only required for console access." };

/** Deactivate Payload (App 0x49) of the SOL payload, instance 1: what `ipmitool sol deactivate` sends. */
const DEACTIVATE_SOL: [number, number, number[]] = [0x06, 0x49, [0x01, 0x01, 0x00, 0x00, 0x00, 0x00]];

/** _console_pwfile_path: the password file the console's ipmitool reads for as long as it runs. */
function passwordFile(task: DriverTask): string {
  return path.join(task.ctx.conf.str('DEFAULT', 'tempdir'), `${task.node.uuid}.pw`);
}

/** make_persistent_password_file: 0600, the password or a NUL byte for none. */
async function persistPassword(file: string, password: string): Promise<void> {
  try {
    await fsp.rm(file, { force: true });
    await fsp.writeFile(file, password || '\0', { mode: 0o600 });
  } catch (err) {
    await fsp.rm(file, { force: true });
    throw new PasswordFileFailedToCreate({ error: (err as Error).message });
  }
}

/** _get_ipmitool_args with a password file, in Ironic's order. */
function ipmitoolCommand(task: DriverTask, info: IpmiDriverInfo, pwFile: string): string {
  const args = ['ipmitool', '-I', info.protocolVersion === '2.0' ? 'lanplus' : 'lan', '-H', info.address, '-L', info.privLevel];
  if (info.port !== null) args.push('-p', String(info.port));
  if (info.username) args.push('-U', info.username);
  if (info.hexKgKey) args.push('-y', info.hexKgKey);
  if (info.cipherSuite !== null) args.push('-C', String(info.cipherSuite));
  const b = info.bridging;
  if (b) {
    if (b.localAddress !== undefined) args.push('-m', String(b.localAddress));
    if (b.transitChannel !== undefined) args.push('-B', String(b.transitChannel), '-T', String(b.transitAddress ?? 0));
    args.push('-b', String(b.targetChannel), '-t', String(b.targetAddress));
  }
  args.push('-f', pwFile);
  if (task.ctx.conf.bool('ipmi', 'debug')) args.push('-v');
  return args.join(' ');
}

/** `sol deactivate` with exit codes 0 and 1 accepted: a session already closed is not a failure. */
async function deactivateSol(task: DriverTask): Promise<void> {
  await ipmiCall(task, 'sol deactivate', async (client) => {
    try {
      await client.raw(...DEACTIVATE_SOL);
    } catch (err) {
      if (!(err instanceof ipmi.IpmiCompletionCodeError) && !(err instanceof ipmi.IpmitoolError)) throw err;
    }
  });
}

async function releaseAllocatedPort(task: DriverTask): Promise<void> {
  const internal = { ...(task.node.driver_internal_info ?? {}) } as Record<string, unknown>;
  const port = internal.allocated_ipmi_terminal_port;
  if (!Object.hasOwn(internal, 'allocated_ipmi_terminal_port')) return;
  delete internal.allocated_ipmi_terminal_port;
  task.node.driver_internal_info = internal;
  await task.saveNode();
  if (typeof port === 'number') releasePort(port);
}

async function allocatePort(task: DriverTask): Promise<number> {
  const conf = task.ctx.conf;
  const port = await acquirePort(conf.optStr('console', 'port_range') ?? '', conf.str('console', 'socat_address'), conf.str('DEFAULT', 'host'));
  task.node.driver_internal_info = { ...(task.node.driver_internal_info ?? {}), allocated_ipmi_terminal_port: port };
  await task.saveNode();
  return port;
}

/** What differs between the ipmitool consoles: the program serving the console and its URL. */
interface ConsoleKind {
  name: string;
  className: string;
  type: string;
  /** The program's console command around `ipmitool ... sol activate`. */
  command(solActivate: string): string;
  start(conf: Config, nodeUuid: string, port: number, command: string): Promise<void>;
  stop(conf: Config, nodeUuid: string): Promise<void>;
  url(conf: Config, port: number): string;
  /** Whether get_console ends an open SOL session first (socat's next client runs sol activate). */
  deactivateOnGet: boolean;
}

const SOCAT: ConsoleKind = {
  name: 'ipmitool-socat', className: 'IPMISocatConsole', type: 'socat',
  command: (sol) => sol, start: startSocatConsole, stop: stopSocatConsole, url: socatConsoleUrl, deactivateOnGet: true,
};

const SHELLINABOX: ConsoleKind = {
  name: 'ipmitool-shellinabox', className: 'IPMIShellinaboxConsole', type: 'shellinabox',
  // shellinaboxd's service line: /:<uid>:<gid>:<cwd>:<command>, as the conductor's own user.
  command: (sol) => `/:${process.getuid?.() ?? 0}:${process.getgid?.() ?? 0}:HOME:${sol}`,
  start: startShellinaboxConsole, stop: stopShellinaboxConsole, url: shellinaboxConsoleUrl, deactivateOnGet: false,
};

function createIpmitoolConsole(kind: ConsoleKind): ConsoleInterface {
  return {
    kind: 'console', name: kind.name, className: kind.className,
    properties: () => ({ ...IPMI_PROPERTIES, ...CONSOLE_PROPERTIES }),
    async validate(task) {
      const info = parseIpmiDriverInfo(task.node);
      if (info.terminalPort === null && task.ctx.conf.optStr('console', 'port_range') === null) {
        throw new MissingParameterValue("Either missing 'ipmi_terminal_port' parameter in node's driver_info or " +
          '[console]port_range is not configured');
      }
      if (info.protocolVersion !== '2.0') {
        throw new InvalidParameterValue("Serial over lan only works with IPMI protocol version 2.0. Check the " +
          "'ipmi_protocol_version' parameter in node's driver_info");
      }
    },
    async startConsole(task) {
      await releaseAllocatedPort(task);
      const info = parseIpmiDriverInfo(task.node);
      const port = info.terminalPort ?? await allocatePort(task);
      await deactivateSol(task).catch((err: unknown) => log.debug(`sol deactivate before the console: ${(err as Error).message}`));
      const pwFile = passwordFile(task);
      await persistPassword(pwFile, info.password);
      try {
        await kind.start(task.ctx.conf, task.node.uuid, port, kind.command(`${ipmitoolCommand(task, info, pwFile)} sol activate`));
      } catch (err) {
        await fsp.rm(pwFile, { force: true });
        throw err;
      }
    },
    async stopConsole(task) {
      parseIpmiDriverInfo(task.node);
      try {
        await kind.stop(task.ctx.conf, task.node.uuid);
      } finally {
        await fsp.rm(passwordFile(task), { force: true });
      }
      await deactivateSol(task);
      await releaseAllocatedPort(task);
    },
    async getConsole(task) {
      const info = parseIpmiDriverInfo(task.node);
      if (kind.deactivateOnGet) {
        await deactivateSol(task).catch((err: unknown) => log.debug(`sol deactivate before a console client: ${(err as Error).message}`));
      }
      return { type: kind.type, url: kind.url(task.ctx.conf, info.terminalPort ?? 0) };
    },
  };
}

export const createIpmitoolSocatConsole = (): ConsoleInterface => createIpmitoolConsole(SOCAT);
export const createIpmitoolShellinaboxConsole = (): ConsoleInterface => createIpmitoolConsole(SHELLINABOX);
