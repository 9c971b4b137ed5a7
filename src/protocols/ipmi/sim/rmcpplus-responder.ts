/**
 * Server half of RMCP+ for the simulator: pre-session Get Channel Authentication Capabilities,
 * Open Session, RAKP 1-4, then verified/decrypted requests dispatched to a BmcModel.
 */
import { AUTH_ALG_IDS, CONF_ALG_IDS, INTEGRITY_ALG_IDS, suiteFromAlgorithmIds, type CipherSuite } from '../cipher-suites';
import { padPassword, safeEqual } from '../crypto';
import { decodeRequest, encodeResponse, type DecodedRequest } from '../message';
import { decodeV15, encodeV15 } from '../packet-v15';
import * as v20 from '../packet-v20';
import * as rakp from '../rakp';
import type { BmcModel } from './bmc-model';
import { secureRandomBytes as randomBytes, secureRandomU32NonZero } from '../random-pool';

export interface SimUser {
  name: string;
  password: string;
  /** 1..4 */
  maxPriv: number;
}

export interface ResponderOptions {
  users: SimUser[];
  cipherSuites: number[];
  /** Kg as bytes; absent = use the user key. */
  kg?: Buffer;
  guid?: Buffer;
  maxSessions?: number;
  /**
   * How bridged (Send Message) requests are answered: the target's response embedded in the
   * Send Message response, or an empty acknowledgement per bridging level followed by a
   * separate response packet (the two behaviours found in real BMCs).
   */
  bridgeMode?: 'embedded' | 'separate';
}

interface SimSession {
  consoleSid: number;
  bmcSid: number;
  suite: CipherSuite;
  requestedPriv: number;
  priv: number;
  ctx?: rakp.RakpContext;
  keys?: v20.SessionKeys;
  outSeq: number;
  lastUsed: number;
}

const STATUS_NO_CIPHER_MATCH = 0x11;
const STATUS_INVALID_SESSION = 0x02;
const STATUS_UNAUTHORIZED_NAME = 0x0d;
const STATUS_UNAUTHORIZED_ROLE = 0x09;
const STATUS_INVALID_ICV = 0x0f;

export class RmcpPlusResponder {
  private readonly sessions = new Map<number, SimSession>();
  private readonly guid: Buffer;

  constructor(private readonly model: BmcModel, private readonly options: ResponderOptions) {
    this.guid = options.guid ?? randomBytes(16);
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  /** Returns the datagrams to send back; none to stay silent (as BMCs do for junk). */
  handle(packet: Buffer): Buffer[] {
    if (packet.length < 5 || packet[3] !== 0x07) return [];
    try {
      if ((packet[4] & 0x0f) === 0x06) return this.handleV20(packet);
      const rsp = this.handlePreSession(packet);
      return rsp ? [rsp] : [];
    } catch {
      return [];
    }
  }

  private handlePreSession(packet: Buffer): Buffer | undefined {
    const p = decodeV15(packet);
    if (p.sessionId !== 0) return undefined;
    const req = decodeRequest(p.message);
    if (req.netFn !== 0x06 || req.cmd !== 0x38) return undefined;
    // channel 1; v2 extended caps + none/md5/password; non-null usernames; IPMI 1.5 and 2.0
    const rsp = encodeResponse(req, 0, Buffer.from([0x01, 0x80 | 0x15, 0x04, 0x03, 0, 0, 0, 0]));
    return encodeV15({ authType: 0, seq: 0, sessionId: 0, authCode: Buffer.alloc(0), message: rsp });
  }

  private handleV20(packet: Buffer): Buffer[] {
    const type = packet[5] & 0x3f;
    const one = (b: Buffer | undefined): Buffer[] => (b ? [b] : []);
    if (type === v20.PAYLOAD_OPEN_SESSION_REQ) return one(this.openSession(v20.decodeV20(packet).payload));
    if (type === v20.PAYLOAD_RAKP1) return one(this.rakp1(v20.decodeV20(packet).payload));
    if (type === v20.PAYLOAD_RAKP3) return one(this.rakp3(v20.decodeV20(packet).payload));
    if (type === v20.PAYLOAD_IPMI) return this.inSession(packet);
    return [];
  }

  private evictIfFull(): void {
    const max = this.options.maxSessions ?? 32;
    if (this.sessions.size < max) return;
    let oldest: SimSession | undefined;
    for (const s of this.sessions.values()) if (!oldest || s.lastUsed < oldest.lastUsed) oldest = s;
    if (oldest) this.sessions.delete(oldest.bmcSid);
  }

  private openSession(payload: Buffer): Buffer {
    const req = rakp.decodeOpenSessionRequest(payload);
    const suite = suiteFromAlgorithmIds(req.auth, req.integrity, req.confidentiality);
    const base = { tag: req.tag, priv: 0, consoleSid: req.consoleSid, bmcSid: 0, auth: 0, integrity: 0, confidentiality: 0 };
    if (!suite || !this.options.cipherSuites.includes(suite.id)) {
      return v20.encodeV20(v20.PAYLOAD_OPEN_SESSION_RSP, 0, 0, rakp.encodeOpenSessionResponse({ ...base, status: STATUS_NO_CIPHER_MATCH }));
    }
    this.evictIfFull();
    let bmcSid = secureRandomU32NonZero();
    while (this.sessions.has(bmcSid)) bmcSid = secureRandomU32NonZero();
    const priv = req.priv === 0 ? 4 : req.priv;
    this.sessions.set(bmcSid, { consoleSid: req.consoleSid, bmcSid, suite, requestedPriv: priv, priv: 2, outSeq: 0, lastUsed: Date.now() });
    return v20.encodeV20(
      v20.PAYLOAD_OPEN_SESSION_RSP,
      0,
      0,
      rakp.encodeOpenSessionResponse({
        ...base,
        status: 0,
        priv,
        bmcSid,
        auth: AUTH_ALG_IDS[suite.auth],
        integrity: INTEGRITY_ALG_IDS[suite.integrity],
        confidentiality: CONF_ALG_IDS[suite.confidentiality],
      }),
    );
  }

  private rakp1(payload: Buffer): Buffer | undefined {
    const r1 = rakp.decodeRakp1(payload);
    const session = this.sessions.get(r1.bmcSid);
    if (!session) return v20.encodeV20(v20.PAYLOAD_RAKP2, 0, 0, rakp.encodeRakp2(r1.tag, STATUS_INVALID_SESSION, 0, Buffer.alloc(0), Buffer.alloc(0), Buffer.alloc(0)));
    const fail = (status: number): Buffer => {
      this.sessions.delete(session.bmcSid);
      return v20.encodeV20(v20.PAYLOAD_RAKP2, 0, 0, rakp.encodeRakp2(r1.tag, status, session.consoleSid, Buffer.alloc(0), Buffer.alloc(0), Buffer.alloc(0)));
    };
    const user = this.options.users.find((u) => u.name === r1.username.toString('utf8'));
    if (!user) return fail(STATUS_UNAUTHORIZED_NAME);
    const role = r1.role & 0x0f;
    if (role > user.maxPriv) return fail(STATUS_UNAUTHORIZED_ROLE);
    const kuid = padPassword(user.password, 20);
    session.ctx = {
      suite: session.suite,
      consoleSid: session.consoleSid,
      bmcSid: session.bmcSid,
      consoleRandom: r1.consoleRandom,
      bmcRandom: randomBytes(16),
      bmcGuid: this.guid,
      role: r1.role,
      username: r1.username,
      kuid,
      kg: this.options.kg ?? kuid,
    };
    session.requestedPriv = role;
    const code = rakp.rakp2Hmac(session.ctx);
    return v20.encodeV20(v20.PAYLOAD_RAKP2, 0, 0, rakp.encodeRakp2(r1.tag, 0, session.consoleSid, session.ctx.bmcRandom, this.guid, code));
  }

  private rakp3(payload: Buffer): Buffer | undefined {
    const r3 = rakp.decodeRakp3or4(payload, 'RAKP3');
    const session = this.sessions.get(r3.sid);
    if (!session || !session.ctx) return undefined;
    if (r3.status !== 0 || !safeEqual(rakp.rakp3Hmac(session.ctx), r3.code)) {
      this.sessions.delete(session.bmcSid);
      return v20.encodeV20(v20.PAYLOAD_RAKP4, 0, 0, rakp.encodeRakp4(r3.tag, STATUS_INVALID_ICV, session.consoleSid, Buffer.alloc(0)));
    }
    const keys = rakp.sessionKeys(session.ctx);
    session.keys = { suite: session.suite, k1: keys.k1, k2: keys.k2 };
    session.priv = Math.min(2, session.requestedPriv);
    return v20.encodeV20(v20.PAYLOAD_RAKP4, 0, 0, rakp.encodeRakp4(r3.tag, 0, session.consoleSid, rakp.rakp4Icv(session.ctx, keys.sik)));
  }

  private inSession(packet: Buffer): Buffer[] {
    const session = this.sessions.get(packet.readUInt32LE(6));
    if (!session || !session.keys) return [];
    const decoded = v20.decodeV20(packet, session.keys);
    const req = decodeRequest(decoded.payload);
    session.lastUsed = Date.now();
    if (req.netFn === 0x06 && req.cmd === 0x34 && this.options.bridgeMode === 'separate') {
      return this.separateBridgeResponses(session, req).map((frame) => this.seal(session, frame));
    }
    const result = this.dispatch(session, req);
    return [this.seal(session, encodeResponse(req, result.cc, result.data))];
  }

  private seal(session: SimSession, frame: Buffer): Buffer {
    session.outSeq = (session.outSeq + 1) >>> 0 || 1;
    return v20.encodeV20(v20.PAYLOAD_IPMI, session.consoleSid, session.outSeq, frame, session.keys);
  }

  /** One empty Send Message acknowledgement per level, then the target's answer on our rqSeq. */
  private separateBridgeResponses(session: SimSession, outer: DecodedRequest): Buffer[] {
    const frames: Buffer[] = [];
    let inner = outer;
    while (inner.netFn === 0x06 && inner.cmd === 0x34) {
      if (inner.data.length < 8) return [encodeResponse(outer, 0xc7, Buffer.alloc(0))];
      frames.push(encodeResponse(outer, 0, Buffer.alloc(0)));
      inner = decodeRequest(inner.data.subarray(1));
    }
    const result = this.dispatch(session, inner);
    const asIfFromUs: DecodedRequest = { ...inner, rqAddr: outer.rqAddr, rqSeq: outer.rqSeq, rqLun: outer.rqLun };
    frames.push(encodeResponse(asIfFromUs, result.cc, result.data));
    return frames;
  }

  private dispatch(session: SimSession, req: DecodedRequest): { cc: number; data: Buffer } {
    if (req.netFn === 0x06 && req.cmd === 0x3b) {
      const wanted = req.data[0] & 0x0f;
      if (wanted === 0) return { cc: 0, data: Buffer.from([session.priv]) };
      if (wanted > session.requestedPriv) return { cc: 0x81, data: Buffer.alloc(0) };
      session.priv = wanted;
      return { cc: 0, data: Buffer.from([wanted]) };
    }
    if (req.netFn === 0x06 && req.cmd === 0x3c) {
      const sid = req.data.length >= 4 ? req.data.readUInt32LE(0) : 0;
      if (sid !== session.bmcSid) return { cc: 0x87, data: Buffer.alloc(0) };
      this.sessions.delete(session.bmcSid);
      return { cc: 0, data: Buffer.alloc(0) };
    }
    if (req.netFn === 0x06 && req.cmd === 0x34) return this.sendMessage(session, req);
    return this.model.handle(req.netFn, req.cmd, req.data, session.priv);
  }

  /** Bridged requests are answered by the same model, returned inside the Send Message response. */
  private sendMessage(session: SimSession, req: DecodedRequest): { cc: number; data: Buffer } {
    if (req.data.length < 8) return { cc: 0xc7, data: Buffer.alloc(0) };
    const inner = decodeRequest(req.data.subarray(1));
    const result = this.dispatch(session, inner);
    return { cc: 0, data: encodeResponse(inner, result.cc, result.data) };
  }
}
