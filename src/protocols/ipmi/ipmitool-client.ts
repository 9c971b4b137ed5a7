/**
 * IpmitoolClient: the same IpmiPowerClient contract implemented by running Debian's ipmitool,
 * as Python Ironic does. The password goes through a 0600 file (never argv) removed afterwards;
 * every run is bounded by a timeout that kills the process.
 */
import { timeBmc } from '../../metrics/prometheus';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseKgKey } from './client';
import { IpmiClosedError, IpmiTimeoutError, IpmitoolError } from './errors';
import { errorFromIpmitool, parseBootParam5, parseMcInfo, parsePowerStatus } from './ipmitool-output';
import type { BootDevice, BootDeviceInfo, DeviceId, IpmiClientOptions, IpmiPowerClient, PowerState, PrivLevel, SetBootDeviceOptions } from './types';

export interface IpmitoolClientOptions extends IpmiClientOptions {
  ipmitoolPath?: string;
  /** Hard limit for one ipmitool run; the process is killed past it. */
  commandTimeoutMs?: number;
}

const PRIV_NAMES: Readonly<Record<PrivLevel, string>> = {
  callback: 'CALLBACK',
  user: 'USER',
  operator: 'OPERATOR',
  administrator: 'ADMINISTRATOR',
};

interface RunResult {
  stdout: string;
  stderr: string;
}

export class IpmitoolClient implements IpmiPowerClient {
  private closed = false;
  private readonly running = new Set<() => void>();

  constructor(private readonly options: IpmitoolClientOptions) {
    if (options.kgKey) parseKgKey(options.kgKey);
  }

  private get commandTimeoutMs(): number {
    const o = this.options;
    return o.commandTimeoutMs ?? Math.max(5000, (o.timeoutMs ?? 1000) * ((o.retries ?? 2) + 1) * 3 + 1000);
  }

  /** Connection arguments, in the order Ironic's _exec_ipmitool builds them. */
  private baseArgs(passwordFile: string): string[] {
    const o = this.options;
    const args = ['-v', '-I', o.protocolVersion === '1.5' ? 'lan' : 'lanplus', '-H', o.address, '-p', String(o.port ?? 623)];
    args.push('-L', PRIV_NAMES[o.privLevel ?? 'administrator']);
    if (o.protocolVersion !== '1.5') args.push('-C', String(o.cipherSuite ?? 3));
    if (o.username) args.push('-U', o.username);
    args.push('-f', passwordFile);
    if (o.kgKey) args.push('-y', o.kgKey.replace(/^0x/i, ''));
    args.push('-R', String((o.retries ?? 2) + 1), '-N', String(Math.max(1, Math.ceil((o.timeoutMs ?? 1000) / 1000))));
    const b = o.bridging;
    if (b) {
      if (b.localAddress !== undefined) args.push('-m', String(b.localAddress));
      args.push('-b', String(b.targetChannel), '-t', String(b.targetAddress));
      if (b.type === 'dual') args.push('-B', String(b.transitChannel ?? 0), '-T', String(b.transitAddress ?? 0));
    }
    return args;
  }

  async run(command: string[], what: string): Promise<string> {
    if (this.closed) throw new IpmiClosedError('IpmitoolClient is closed');
    const dir = await mkdtemp(join(tmpdir(), 'ipmitool-'));
    const pwFile = join(dir, 'pw');
    try {
      await writeFile(pwFile, this.options.password ?? '', { mode: 0o600 });
      const result = await timeBmc('ipmitool', () => this.spawnBounded([...this.baseArgs(pwFile), ...command], what));
      return result.stdout;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  private spawnBounded(args: string[], what: string): Promise<RunResult> {
    const limit = this.commandTimeoutMs;
    return new Promise<RunResult>((resolve, reject) => {
      const child = spawn(this.options.ipmitoolPath ?? 'ipmitool', args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      let timedOut = false;
      const kill = (): void => {
        child.kill('SIGKILL');
      };
      this.running.add(kill);
      const timer = setTimeout(() => {
        timedOut = true;
        kill();
      }, limit);
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', (err) => {
        clearTimeout(timer);
        this.running.delete(kill);
        reject(new IpmitoolError(`cannot run ipmitool: ${err.message}`, null, ''));
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        this.running.delete(kill);
        if (timedOut) reject(new IpmiTimeoutError(`ipmitool ${what}`, limit, 1));
        else if (this.closed && code !== 0) reject(new IpmiClosedError('IpmitoolClient closed during a command'));
        else if (code !== 0) reject(errorFromIpmitool(what, code, stderr, this.options.timeoutMs ?? 1000));
        else resolve({ stdout, stderr });
      });
    });
  }

  async getPowerState(): Promise<PowerState> {
    return parsePowerStatus(await this.run(['power', 'status'], 'power status'));
  }

  private async power(action: string): Promise<void> {
    await this.run(['power', action], `power ${action}`);
  }

  powerOn(): Promise<void> {
    return this.power('on');
  }

  powerOff(): Promise<void> {
    return this.power('off');
  }

  powerCycle(): Promise<void> {
    return this.power('cycle');
  }

  powerReset(): Promise<void> {
    return this.power('reset');
  }

  softPowerOff(): Promise<void> {
    return this.power('soft');
  }

  diagInterrupt(): Promise<void> {
    return this.power('diag');
  }

  /** As Ironic: disable the boot-flag timeout by raw bytes (best effort), then chassis bootdev. */
  async setBootDevice(device: BootDevice, options: SetBootDeviceOptions = {}): Promise<void> {
    await this.run(['raw', '0x00', '0x08', '0x03', '0x08'], 'raw boot timeout disable').catch(() => undefined);
    const opts: string[] = [];
    if (options.persistent) opts.push('persistent');
    if (options.efi) opts.push('efiboot');
    const cmd = ['chassis', 'bootdev', device];
    if (opts.length > 0) cmd.push(`options=${opts.join(',')}`);
    await this.run(cmd, `chassis bootdev ${device}`);
  }

  async getBootDevice(): Promise<BootDeviceInfo> {
    return parseBootParam5(await this.run(['chassis', 'bootparam', 'get', '5'], 'chassis bootparam get 5'));
  }

  async getDeviceId(): Promise<DeviceId> {
    return parseMcInfo(await this.run(['mc', 'info'], 'mc info'));
  }

  async raw(netFn: number, cmd: number, data: number[] = []): Promise<Buffer> {
    const hex = (n: number): string => `0x${n.toString(16).padStart(2, '0')}`;
    const out = await this.run(['raw', hex(netFn), hex(cmd), ...data.map(hex)], `raw ${hex(netFn)} ${hex(cmd)}`);
    return Buffer.from((out.match(/\b[0-9a-f]{2}\b/gi) ?? []).map((b) => parseInt(b, 16)));
  }

  /** Kills any ipmitool still running for this client. */
  async close(): Promise<void> {
    this.closed = true;
    for (const kill of this.running) kill();
  }
}
