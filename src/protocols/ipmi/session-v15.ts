/**
 * IPMI 1.5 (`lan`) session for old BMCs: Get Channel Authentication Capabilities, Get Session
 * Challenge, Activate Session (MD5, straight password or none), Set Session Privilege Level.
 */
import { randomInt } from 'node:crypto';
import { padPassword, safeEqual, V15_AUTH_IDS, v15AuthCode, type V15AuthType } from './crypto';
import { IpmiAuthError, IpmiCompletionCodeError, IpmiIntegrityError, IpmiTimeoutError } from './errors';
import { decodeResponse, encodeRequest, plainPlan, type IpmiRequest, type IpmiResponse, type RequestPlan } from './message';
import { decodeV15, encodeV15, isV20Packet } from './packet-v15';
import { IpmiSessionBase } from './session';
import { SequenceWindow } from './sequence-window';
import type { Accepted } from './transport';

/** Preference order: strongest first. MD2 is not offered (no MD2 in node's OpenSSL). */
const PREFERENCE: readonly V15AuthType[] = ['md5', 'password', 'none'];
const AUTH_BITS: Readonly<Record<V15AuthType, number>> = { none: 0x01, md5: 0x04, password: 0x10 };

export class LanSession extends IpmiSessionBase {
  private authType: V15AuthType = 'none';
  private sessionId = 0;
  private outSeq = 0;
  private readonly inbound = new SequenceWindow();

  /** expectSid undefined: accept any session id (Activate Session answers with the new id). */
  private exchange(plan: RequestPlan, what: string, authType: V15AuthType, sessionId: number, seq: () => number, expectSid: number | undefined = sessionId): Promise<IpmiResponse> {
    const rqSeq = this.nextRqSeq();
    const frame = encodeRequest(plan.wire(rqSeq), rqSeq);
    return this.transport.exchange({
      what,
      timeoutMs: this.params.timeoutMs,
      retries: this.params.retries,
      build: () => {
        const s = seq();
        return encodeV15({
          authType: V15_AUTH_IDS[authType],
          seq: s,
          sessionId,
          authCode: v15AuthCode(authType, this.params.password, sessionId, s, frame),
          message: frame,
        });
      },
      accept: (packet) => this.accept(packet, plan, rqSeq, expectSid),
    });
  }

  private accept(packet: Buffer, plan: RequestPlan, rqSeq: number, expectSid: number | undefined): Accepted<IpmiResponse> {
    if (isV20Packet(packet)) return undefined;
    const p = decodeV15(packet);
    if (expectSid !== undefined && p.sessionId !== expectSid) return undefined;
    if (p.authType === V15_AUTH_IDS.md5 && this.authType === 'md5' && this.sessionId !== 0) {
      const expected = v15AuthCode('md5', this.params.password, p.sessionId, p.seq, p.message);
      if (!safeEqual(expected, p.authCode)) throw new IpmiIntegrityError('IPMI 1.5 response MD5 auth code mismatch');
    }
    // Authenticated in-session packets must carry fresh sequence numbers; replays are dropped.
    if (this.sessionId !== 0 && p.sessionId === this.sessionId && p.authType !== 0 && !this.inbound.accept(p.seq)) return undefined;
    const rsp = decodeResponse(p.message);
    if (!plan.answers(rsp, rqSeq)) return undefined;
    return { value: rsp };
  }

  private async sessionless(req: IpmiRequest, what: string): Promise<Buffer> {
    const rsp = await this.exchange(plainPlan(req), what, 'none', 0, () => 0);
    if (rsp.completionCode !== 0) {
      if (rsp.completionCode >= 0x81 && rsp.completionCode <= 0x86) {
        throw new IpmiAuthError(`${what} refused: completion code 0x${rsp.completionCode.toString(16)}`, rsp.completionCode);
      }
      throw new IpmiCompletionCodeError(what, rsp.completionCode);
    }
    return rsp.data;
  }

  protected async establish(): Promise<void> {
    const priv = this.params.priv;
    const caps = await this.sessionless({ netFn: 0x06, cmd: 0x38, data: Buffer.from([0x0e, priv]) }, 'Get Channel Authentication Capabilities');
    const supported = caps.length > 1 ? caps[1] : 0;
    const chosen = PREFERENCE.find((t) => (supported & AUTH_BITS[t]) !== 0);
    if (!chosen) throw new IpmiAuthError('BMC offers no IPMI 1.5 authentication type we support (md5, password, none)');
    const username = padPassword(this.params.username, 16);
    const challenge = await this.sessionless({ netFn: 0x06, cmd: 0x39, data: Buffer.concat([Buffer.from([V15_AUTH_IDS[chosen]]), username]) }, 'Get Session Challenge');
    if (challenge.length < 20) throw new IpmiAuthError('Get Session Challenge response truncated');
    const tempId = challenge.readUInt32LE(0);
    const initialOutbound = randomInt(1, 0x7fffffff);
    const activateData = Buffer.concat([Buffer.from([V15_AUTH_IDS[chosen], priv]), challenge.subarray(4, 20), Buffer.alloc(4)]);
    activateData.writeUInt32LE(initialOutbound, 18);
    this.authType = chosen;
    let rsp: IpmiResponse;
    try {
      rsp = await this.exchange(plainPlan({ netFn: 0x06, cmd: 0x3a, data: activateData }), 'Activate Session', chosen, tempId, () => 0, undefined);
    } catch (err) {
      // BMCs drop an Activate Session whose auth code does not verify: silence means a bad password.
      if (err instanceof IpmiTimeoutError) throw new IpmiAuthError('no answer to Activate Session: wrong user name or password');
      throw err;
    }
    if (rsp.completionCode !== 0) throw new IpmiAuthError(`Activate Session refused: completion code 0x${rsp.completionCode.toString(16)}`, rsp.completionCode);
    if (rsp.data.length < 10) throw new IpmiAuthError('Activate Session response truncated');
    this.sessionId = rsp.data.readUInt32LE(1);
    this.outSeq = rsp.data.readUInt32LE(5) - 1;
    if (priv > 2) {
      const set = await this.sendInSession({ netFn: 0x06, cmd: 0x3b, data: Buffer.from([priv]) }, 'Set Session Privilege Level');
      if (set.completionCode !== 0) throw new IpmiAuthError(`Set Session Privilege Level refused (0x${set.completionCode.toString(16)})`, set.completionCode);
    }
  }

  protected sendPlan(plan: RequestPlan, what: string): Promise<IpmiResponse> {
    return this.exchange(plan, what, this.authType, this.sessionId, () => {
      this.outSeq = (this.outSeq + 1) >>> 0 || 1;
      return this.outSeq;
    });
  }

  protected async buildClose(): Promise<void> {
    const data = Buffer.alloc(4);
    data.writeUInt32LE(this.sessionId >>> 0);
    await this.sendInSession({ netFn: 0x06, cmd: 0x3c, data }, 'Close Session');
  }
}
