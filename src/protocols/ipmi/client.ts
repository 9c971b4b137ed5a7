/**
 * IpmiClient: the native IPMI-over-LAN implementation of IpmiPowerClient. Sessions come from a
 * SessionPool (shared, reused, kept alive) unless `pool: null` asks for a private session.
 */
import { timeBmc } from '../../metrics/prometheus';
import { createHash } from 'node:crypto';
import { bridgedPlan } from './bridging';
import * as chassis from './chassis';
import { cipherSuite } from './cipher-suites';
import { IpmiClosedError, IpmiCompletionCodeError, IpmiConfigError, IpmiTimeoutError } from './errors';
import type { IpmiRequest, IpmiResponse } from './message';
import { defaultSessionPool, SessionPool } from './pool';
import type { IpmiSessionBase, SessionParams } from './session';
import { LanSession } from './session-v15';
import { RmcpPlusSession } from './session-v20';
import {
  PRIV_LEVEL_CODES,
  type BootDevice,
  type BootDeviceInfo,
  type DeviceId,
  type IpmiClientOptions,
  type IpmiPowerClient,
  type PowerAction,
  type PowerState,
  type SetBootDeviceOptions,
} from './types';

export interface IpmiClientDeps {
  /** null: a private session closed by close(); default: the process-wide pool. */
  pool?: SessionPool | null;
}

export function parseKgKey(hex: string): Buffer {
  const clean = hex.replace(/^0x/i, '');
  if (!/^[0-9a-fA-F]*$/.test(clean) || clean.length % 2 !== 0 || clean.length > 40) {
    throw new IpmiConfigError('kgKey must be up to 20 bytes of hex');
  }
  const out = Buffer.alloc(20);
  Buffer.from(clean, 'hex').copy(out);
  return out;
}

export class IpmiClient implements IpmiPowerClient {
  private readonly options: Required<Omit<IpmiClientOptions, 'kgKey' | 'bridging'>> & Pick<IpmiClientOptions, 'kgKey' | 'bridging'>;
  private readonly pool: SessionPool | null;
  private readonly key: string;
  private session: IpmiSessionBase | undefined;
  private closed = false;

  constructor(options: IpmiClientOptions, deps: IpmiClientDeps = {}) {
    this.options = {
      port: 623,
      username: '',
      password: '',
      privLevel: 'administrator',
      cipherSuite: 3,
      protocolVersion: '2.0',
      timeoutMs: 1000,
      retries: 2,
      ...options,
    };
    if (this.options.protocolVersion === '2.0') cipherSuite(this.options.cipherSuite);
    if (!(this.options.timeoutMs > 0) || !Number.isInteger(this.options.retries) || this.options.retries < 0) {
      throw new IpmiConfigError('timeoutMs must be > 0 and retries a non-negative integer');
    }
    if (this.options.kgKey) parseKgKey(this.options.kgKey);
    this.pool = deps.pool === undefined ? defaultSessionPool : deps.pool;
    const secret = createHash('sha256').update(`${this.options.password}\0${this.options.kgKey ?? ''}`).digest('hex');
    const o = this.options;
    this.key = [o.protocolVersion, o.address, o.port, o.username, o.protocolVersion === '2.0' ? o.cipherSuite : '-', o.privLevel, secret].join('|');
  }

  private createSession(): IpmiSessionBase {
    const o = this.options;
    const params: SessionParams = {
      address: o.address,
      port: o.port,
      username: o.username,
      password: o.password,
      priv: PRIV_LEVEL_CODES[o.privLevel],
      timeoutMs: o.timeoutMs,
      retries: o.retries,
    };
    if (o.protocolVersion === '1.5') return new LanSession(params);
    return new RmcpPlusSession({ ...params, suite: cipherSuite(o.cipherSuite), kg: o.kgKey ? parseKgKey(o.kgKey) : undefined });
  }

  private obtainSession(): IpmiSessionBase {
    if (this.session && this.session.usable) return this.session;
    if (this.session) this.releaseSession(this.session, true);
    this.session = this.pool
      ? this.pool.acquire(this.key, () => this.createSession(), (s) => keepAlivePing(s))
      : this.createSession();
    return this.session;
  }

  private releaseSession(session: IpmiSessionBase, failed: boolean): void {
    if (this.session === session) this.session = undefined;
    if (!this.pool) void session.close();
    else if (failed) this.pool.discard(this.key, session);
    else this.pool.release(this.key, session);
  }

  /** Sends a raw request; a reused session that went stale is replaced once, transparently. */
  async request(req: IpmiRequest, what: string): Promise<IpmiResponse> {
    if (this.closed) throw new IpmiClosedError('IpmiClient is closed');
    const session = this.obtainSession();
    const reused = session.state === 'open';
    try {
      return await this.send(session, req, what);
    } catch (err) {
      const stale = err instanceof IpmiTimeoutError || err instanceof IpmiClosedError;
      if (!session.usable) this.releaseSession(session, true);
      if (!reused || !stale || this.closed) throw err;
      return this.send(this.obtainSession(), req, what);
    }
  }

  private async send(session: IpmiSessionBase, req: IpmiRequest, what: string): Promise<IpmiResponse> {
    const bridging = this.options.bridging;
    return timeBmc('ipmi', () => session.request(bridging ? bridgedPlan(bridging, req) : req, what));
  }

  /** Like request() but a non-zero completion code becomes an IpmiCompletionCodeError. */
  async command(req: IpmiRequest, what: string): Promise<Buffer> {
    const rsp = await this.request(req, what);
    if (rsp.completionCode !== 0) throw new IpmiCompletionCodeError(what, rsp.completionCode);
    return rsp.data;
  }

  async getPowerState(): Promise<PowerState> {
    return chassis.parsePowerState(await this.command(chassis.getChassisStatus(), 'Get Chassis Status'));
  }

  private async control(action: PowerAction, what: string): Promise<void> {
    await this.command(chassis.chassisControl(action), what);
  }

  powerOn(): Promise<void> {
    return this.control('on', 'Chassis Control (power up)');
  }

  powerOff(): Promise<void> {
    return this.control('off', 'Chassis Control (power down)');
  }

  powerCycle(): Promise<void> {
    return this.control('cycle', 'Chassis Control (power cycle)');
  }

  powerReset(): Promise<void> {
    return this.control('reset', 'Chassis Control (hard reset)');
  }

  softPowerOff(): Promise<void> {
    return this.control('soft', 'Chassis Control (soft shutdown)');
  }

  diagInterrupt(): Promise<void> {
    return this.control('diag', 'Chassis Control (diagnostic interrupt)');
  }

  /**
   * Mirrors ipmitool + Ironic: disable the 60 s valid-bit timeout (param 3), acknowledge boot info
   * (param 4), then write the boot flags (param 5). The first two are best effort: BMCs that do
   * not implement them still honour param 5.
   */
  async setBootDevice(device: BootDevice, options: SetBootDeviceOptions = {}): Promise<void> {
    await this.bestEffort(chassis.setBootParam(3, [0x08]), 'Set System Boot Options (valid bit clearing)');
    await this.bestEffort(chassis.setBootParam(4, [0x01, 0x01]), 'Set System Boot Options (boot info ack)');
    await this.command(chassis.bootFlagsRequest(device, options.persistent ?? false, options.efi ?? false), 'Set System Boot Options (boot flags)');
  }

  /** Transport failures still throw; a refusing completion code is expected on some BMCs. */
  private async bestEffort(req: IpmiRequest, what: string): Promise<void> {
    await this.request(req, what);
  }

  async getBootDevice(): Promise<BootDeviceInfo> {
    return chassis.parseBootFlags(await this.command(chassis.getBootFlagsRequest(), 'Get System Boot Options'));
  }

  async getDeviceId(): Promise<DeviceId> {
    return chassis.parseDeviceId(await this.command(chassis.getDeviceIdRequest(), 'Get Device ID'));
  }

  raw(netFn: number, cmd: number, data: number[] = []): Promise<Buffer> {
    return this.command({ netFn, cmd, data: Buffer.from(data) }, `raw netfn 0x${netFn.toString(16)} cmd 0x${cmd.toString(16)}`);
  }

  /** Releases the session: back to the pool, or closed (Close Session) when private. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const session = this.session;
    this.session = undefined;
    if (!session) return;
    if (this.pool) this.pool.release(this.key, session);
    else await session.close();
  }
}

function keepAlivePing(session: IpmiSessionBase): Promise<void> {
  return session.request(chassis.getDeviceIdRequest(), 'keep-alive Get Device ID').then(() => undefined);
}
