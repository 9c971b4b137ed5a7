/** IPMI 2.0 RMCP+ (`lanplus`) session: Open Session, RAKP 1-4, then authenticated/encrypted requests. */
import { type CipherSuite, AUTH_ALG_IDS, CONF_ALG_IDS, INTEGRITY_ALG_IDS } from './cipher-suites';
import { rmcpPlusStatusName } from './completion-codes';
import { padPassword, safeEqual } from './crypto';
import { IpmiAuthError, IpmiProtocolError, IpmiTimeoutError } from './errors';
import { decodeResponse, encodeRequest, type IpmiResponse, type RequestPlan } from './message';
import {
  decodeV20,
  encodeV20,
  PAYLOAD_IPMI,
  PAYLOAD_OPEN_SESSION_REQ,
  PAYLOAD_OPEN_SESSION_RSP,
  PAYLOAD_RAKP1,
  PAYLOAD_RAKP2,
  PAYLOAD_RAKP3,
  PAYLOAD_RAKP4,
  type SessionKeys,
} from './packet-v20';
import { isV20Packet } from './packet-v15';
import * as rakp from './rakp';
import { IpmiSessionBase, type SessionParams } from './session';
import { SequenceWindow } from './sequence-window';
import { secureRandomBytes, secureRandomU32NonZero } from './random-pool';
import type { Accepted } from './transport';

/** RAKP1 "name-only lookup" bit, as ipmitool sets by default. */
const NAME_ONLY_LOOKUP = 0x10;

interface V20Params extends SessionParams {
  suite: CipherSuite;
  /** Kg; when absent the password key (Kuid) is used, per spec. */
  kg?: Buffer;
}

export class RmcpPlusSession extends IpmiSessionBase {
  private consoleSid = 0;
  private bmcSid = 0;
  private outSeq = 0;
  private keys: SessionKeys | undefined;
  private readonly inbound = new SequenceWindow();
  private tag = 0;

  constructor(private readonly p: V20Params) {
    super(p);
  }

  private nextTag(): number {
    this.tag = (this.tag + 1) & 0xff;
    return this.tag;
  }

  private setupExchange<T>(what: string, payloadType: number, payload: () => Buffer, expectType: number, decode: (b: Buffer) => T & { tag: number }, tag: number): Promise<T> {
    return this.transport.exchange({
      what,
      timeoutMs: this.p.timeoutMs,
      retries: this.p.retries,
      build: () => encodeV20(payloadType, 0, 0, payload()),
      accept: (packet): Accepted<T> => {
        if (!isV20Packet(packet)) return undefined;
        const decoded = decodeV20(packet);
        if (decoded.payloadType !== expectType) {
          throw new IpmiProtocolError(`${what}: expected payload 0x${expectType.toString(16)}, got 0x${decoded.payloadType.toString(16)}`);
        }
        const body = decode(decoded.payload);
        // A response to an earlier retry carries an older tag; wait for ours.
        if (body.tag !== tag) return undefined;
        return { value: body };
      },
    });
  }

  protected async establish(): Promise<void> {
    const suite = this.p.suite;
    this.consoleSid = secureRandomU32NonZero();
    const openTag = this.nextTag();
    const open = await this.setupExchange(
      'Open Session',
      PAYLOAD_OPEN_SESSION_REQ,
      () => rakp.encodeOpenSessionRequest(openTag, this.p.priv, this.consoleSid, suite),
      PAYLOAD_OPEN_SESSION_RSP,
      rakp.decodeOpenSessionResponse,
      openTag,
    );
    if (open.status !== 0) {
      const msg = `Open Session rejected: ${rmcpPlusStatusName(open.status)}`;
      if (open.status >= 0x09 && open.status <= 0x0e) throw new IpmiAuthError(msg, open.status);
      throw new IpmiProtocolError(msg);
    }
    if (open.consoleSid !== this.consoleSid) throw new IpmiProtocolError('Open Session Response for another session id');
    if (open.auth !== AUTH_ALG_IDS[suite.auth] || open.integrity !== INTEGRITY_ALG_IDS[suite.integrity] || open.confidentiality !== CONF_ALG_IDS[suite.confidentiality]) {
      throw new IpmiProtocolError(`BMC chose algorithms ${open.auth}/${open.integrity}/${open.confidentiality}, not cipher suite ${suite.id}`);
    }
    this.bmcSid = open.bmcSid;

    const username = Buffer.from(this.p.username, 'utf8').subarray(0, 16);
    const kuid = padPassword(this.p.password, 20);
    const ctx: rakp.RakpContext = {
      suite,
      consoleSid: this.consoleSid,
      bmcSid: this.bmcSid,
      consoleRandom: secureRandomBytes(16),
      bmcRandom: Buffer.alloc(16),
      bmcGuid: Buffer.alloc(16),
      role: this.p.priv | NAME_ONLY_LOOKUP,
      username,
      kuid,
      kg: this.p.kg ?? kuid,
    };
    const tag1 = this.nextTag();
    const rakp2 = await this.setupExchange(
      'RAKP 1',
      PAYLOAD_RAKP1,
      () => rakp.encodeRakp1(tag1, this.bmcSid, ctx.consoleRandom, ctx.role, username),
      PAYLOAD_RAKP2,
      rakp.decodeRakp2,
      tag1,
    ).catch((err: unknown) => {
      // The BMC just answered Open Session; some (pyghmi, several vendors) then ignore RAKP 1
      // for a user name they do not know rather than answering with a status.
      if (err instanceof IpmiTimeoutError) throw new IpmiAuthError('no answer to RAKP 1: unknown user name?');
      throw err;
    });
    if (rakp2.status !== 0) throw new IpmiAuthError(`RAKP 2 rejected: ${rmcpPlusStatusName(rakp2.status)}`, rakp2.status);
    ctx.bmcRandom = rakp2.bmcRandom;
    ctx.bmcGuid = rakp2.bmcGuid;
    if (!safeEqual(rakp.rakp2Hmac(ctx), rakp2.authCode)) {
      throw new IpmiAuthError('RAKP 2 HMAC mismatch: wrong user name or password');
    }
    const keys = rakp.sessionKeys(ctx);
    const tag3 = this.nextTag();
    const rakp4 = await this.setupExchange(
      'RAKP 3',
      PAYLOAD_RAKP3,
      () => rakp.encodeRakp3(tag3, 0, this.bmcSid, rakp.rakp3Hmac(ctx)),
      PAYLOAD_RAKP4,
      (b) => rakp.decodeRakp3or4(b, 'RAKP 4'),
      tag3,
    );
    if (rakp4.status !== 0) throw new IpmiAuthError(`RAKP 4 rejected: ${rmcpPlusStatusName(rakp4.status)}`, rakp4.status);
    if (!safeEqual(rakp.rakp4Icv(ctx, keys.sik), rakp4.code)) {
      throw new IpmiAuthError('RAKP 4 integrity check mismatch: wrong Kg (BMC key)');
    }
    this.keys = { suite, k1: keys.k1, k2: keys.k2 };
    await this.raisePrivilege();
  }

  /** Sessions start at User level on many BMCs; ask for the configured level explicitly. */
  private async raisePrivilege(): Promise<void> {
    if (this.p.priv <= 2) return;
    const rsp = await this.sendInSession({ netFn: 0x06, cmd: 0x3b, data: Buffer.from([this.p.priv]) }, 'Set Session Privilege Level');
    if (rsp.completionCode !== 0) {
      throw new IpmiAuthError(`Set Session Privilege Level refused (completion code 0x${rsp.completionCode.toString(16)})`, rsp.completionCode);
    }
  }

  protected sendPlan(plan: RequestPlan, what: string): Promise<IpmiResponse> {
    const rqSeq = this.nextRqSeq();
    const frame = encodeRequest(plan.wire(rqSeq), rqSeq);
    return this.transport.exchange({
      what,
      timeoutMs: this.p.timeoutMs,
      retries: this.p.retries,
      build: () => {
        this.outSeq = (this.outSeq + 1) >>> 0 || 1;
        return encodeV20(PAYLOAD_IPMI, this.bmcSid, this.outSeq, frame, this.keys);
      },
      accept: (packet) => this.acceptResponse(packet, plan, rqSeq, what),
    });
  }

  private acceptResponse(packet: Buffer, plan: RequestPlan, rqSeq: number, what: string): Accepted<IpmiResponse> {
    if (!isV20Packet(packet)) return undefined;
    if (packet.length >= 10 && packet.readUInt32LE(6) !== this.consoleSid) return undefined;
    const decoded = decodeV20(packet, this.keys);
    if (decoded.payloadType !== PAYLOAD_IPMI) {
      throw new IpmiProtocolError(`${what}: unexpected payload type 0x${decoded.payloadType.toString(16)} in session`);
    }
    // Replayed or stale packets are dropped silently; only a fresh, verified one counts.
    if (this.keys && this.keys.suite.integrity !== 'none' && !this.inbound.accept(decoded.seq)) return undefined;
    const rsp = decodeResponse(decoded.payload);
    if (!plan.answers(rsp, rqSeq)) return undefined;
    return { value: rsp };
  }

  protected async buildClose(): Promise<void> {
    const data = Buffer.alloc(4);
    data.writeUInt32LE(this.bmcSid >>> 0);
    await this.sendInSession({ netFn: 0x06, cmd: 0x3c, data }, 'Close Session');
  }
}
