/**
 * A typed SNMP manager for one agent (GET and integer SET of a single object), over the npm
 * `net-snmp` package. Each request opens its own session so nothing lingers between calls.
 */
import * as snmp from 'net-snmp';

export type SnmpVersion = '1' | '2c' | '3';
export type SnmpAuthProtocol = 'none' | 'md5' | 'sha' | 'sha224' | 'sha256' | 'sha384' | 'sha512';
export type SnmpPrivProtocol = 'none' | 'des' | 'aes';

export interface SnmpV3Credentials {
  user: string;
  authProtocol?: SnmpAuthProtocol;
  authKey?: string;
  privProtocol?: SnmpPrivProtocol;
  privKey?: string;
  contextName?: string;
}

export interface SnmpClientOptions {
  address: string;
  port: number;
  version: SnmpVersion;
  readCommunity?: string;
  writeCommunity?: string;
  v3?: SnmpV3Credentials;
  /** Per-attempt wait in ms. */
  timeoutMs: number;
  /** Extra attempts after the first. */
  retries: number;
}

/** Base of everything the client throws. */
export class SnmpError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** No answer after every attempt. */
export class SnmpTimeoutError extends SnmpError {}

/** The agent answered with an error status, or the object does not exist. */
export class SnmpRequestError extends SnmpError {}

export type SnmpValue = number | string | null;

/** How long past its own retries the library gets before the request is abandoned. */
const GUARD_SLACK_MS = 1000;

function securityLevel(v3: SnmpV3Credentials): number {
  const auth = v3.authProtocol && v3.authProtocol !== 'none';
  const priv = v3.privProtocol && v3.privProtocol !== 'none';
  if (auth && priv) return snmp.SecurityLevel.authPriv;
  return auth ? snmp.SecurityLevel.authNoPriv : snmp.SecurityLevel.noAuthNoPriv;
}

function openSession(options: SnmpClientOptions, write: boolean): snmp.Session {
  const common = { port: options.port, retries: options.retries, timeout: options.timeoutMs };
  if (options.version === '3') {
    const v3 = options.v3 ?? { user: '' };
    const user: snmp.V3User = {
      name: v3.user,
      level: securityLevel(v3),
      ...(v3.authProtocol ? { authProtocol: snmp.AuthProtocols[v3.authProtocol], authKey: v3.authKey } : {}),
      ...(v3.privProtocol ? { privProtocol: snmp.PrivProtocols[v3.privProtocol], privKey: v3.privKey } : {}),
    };
    return snmp.createV3Session(options.address, user, { ...common, context: v3.contextName ?? '' });
  }
  const community = (write ? options.writeCommunity : options.readCommunity) ?? 'public';
  const version = options.version === '1' ? snmp.Version1 : snmp.Version2c;
  return snmp.createSession(options.address, community, { ...common, version });
}

function translate(err: Error): SnmpError {
  if (err instanceof snmp.RequestTimedOutError) return new SnmpTimeoutError('No SNMP response received before timeout');
  return new SnmpRequestError(err.message);
}

function plainValue(value: unknown): SnmpValue {
  if (typeof value === 'number' || typeof value === 'string') return value;
  if (Buffer.isBuffer(value)) return value.toString('latin1');
  return value === null || value === undefined ? null : String(value);
}

/** One request on a fresh session, closed whatever happens. */
function request(options: SnmpClientOptions, write: boolean,
  send: (s: snmp.Session, cb: (error: Error | null, varbinds: snmp.Varbind[]) => void) => void): Promise<snmp.Varbind> {
  return new Promise((resolve, reject) => {
    let session: snmp.Session;
    try {
      session = openSession(options, write);
    } catch (err) {
      reject(new SnmpRequestError(err instanceof Error ? err.message : String(err)));
      return;
    }
    // Backstop in case the library never calls back (e.g. a v3 discovery going astray): the
    // caller is promised an answer within timeout × attempts.
    const guard = setTimeout(() => finish(new SnmpTimeoutError('No SNMP response received before timeout')),
      options.timeoutMs * (options.retries + 1) + GUARD_SLACK_MS);
    let done = false;
    const finish = (error: SnmpError | null, varbind?: snmp.Varbind): void => {
      if (done) return;
      done = true;
      clearTimeout(guard);
      try { session.close(); } catch { /* already closed */ }
      if (error || !varbind) reject(error ?? new SnmpRequestError('Empty SNMP response'));
      else resolve(varbind);
    };
    session.on('error', (err) => finish(translate(err)));
    try {
      send(session, (error, varbinds) => {
        if (error) return finish(translate(error));
        const varbind = varbinds[0];
        if (!varbind) return finish(new SnmpRequestError('Empty SNMP response'));
        if (snmp.isVarbindError(varbind)) return finish(new SnmpRequestError(snmp.varbindError(varbind)));
        finish(null, varbind);
      });
    } catch (err) {
      finish(err instanceof Error ? translate(err) : new SnmpRequestError(String(err)));
    }
  });
}

export class SnmpClient {
  constructor(private readonly options: SnmpClientOptions) {}

  /** SNMP GET of one object, as a number, text or null. */
  async get(oid: string): Promise<SnmpValue> {
    const varbind = await request(this.options, false, (s, cb) => s.get([oid], cb));
    return plainValue(varbind.value);
  }

  /** SNMP SET of one INTEGER object. */
  async setInteger(oid: string, value: number): Promise<void> {
    await request(this.options, true, (s, cb) => s.set([{ oid, type: snmp.ObjectType.Integer, value }], cb));
  }
}
