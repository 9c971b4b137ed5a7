/**
 * A typed SNMP manager for one agent (GET and integer SET of a single object), over the npm
 * `net-snmp` package. Each request opens its own session so nothing lingers between calls.
 */
import type * as snmp from 'net-snmp';

let loaded: typeof snmp | null = null;

/** net-snmp is loaded on first use: most conductors drive no PDU, and it costs ~5 MiB resident. */
function lib(): typeof snmp {
  loaded ??= require('net-snmp') as typeof snmp;
  return loaded;
}

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
  if (auth && priv) return lib().SecurityLevel.authPriv;
  return auth ? lib().SecurityLevel.authNoPriv : lib().SecurityLevel.noAuthNoPriv;
}

function openSession(options: SnmpClientOptions, write: boolean): snmp.Session {
  const common = { port: options.port, retries: options.retries, timeout: options.timeoutMs };
  if (options.version === '3') {
    const v3 = options.v3 ?? { user: '' };
    const user: snmp.V3User = {
      name: v3.user,
      level: securityLevel(v3),
      ...(v3.authProtocol ? { authProtocol: lib().AuthProtocols[v3.authProtocol], authKey: v3.authKey } : {}),
      ...(v3.privProtocol ? { privProtocol: lib().PrivProtocols[v3.privProtocol], privKey: v3.privKey } : {}),
    };
    return lib().createV3Session(options.address, user, { ...common, context: v3.contextName ?? '' });
  }
  const community = (write ? options.writeCommunity : options.readCommunity) ?? 'public';
  const version = options.version === '1' ? lib().Version1 : lib().Version2c;
  return lib().createSession(options.address, community, { ...common, version });
}

/**
 * net-snmp's texts for an agent's USM Report PDUs (usmStats* counters), as pysnmp words them: the
 * errors Ironic puts in last_error for a wrong SNMPv3 user, key or engine.
 */
const USM_REPORT_TEXTS: ReadonlyMap<string, string> = new Map([
  ['Unsupported Security Level', 'Unsupported SNMP security level'],
  ['Not In Time Window', 'SNMP message timing parameters not in windows of trust'],
  ['Unknown User Name', 'Unknown USM user'],
  ['Unknown Engine ID', 'Unknown SNMP engine ID encountered'],
  ['Wrong Digest (incorrect password, community or key)', 'Wrong SNMP PDU digest'],
  ['Decryption Error', 'Ciphering services not available or ciphertext is broken'],
]);

function translate(err: Error): SnmpError {
  if (err instanceof lib().RequestTimedOutError) return new SnmpTimeoutError('No SNMP response received before timeout');
  return new SnmpRequestError(USM_REPORT_TEXTS.get(err.message) ?? err.message);
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
        if (lib().isVarbindError(varbind)) return finish(new SnmpRequestError(lib().varbindError(varbind)));
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
    await request(this.options, true, (s, cb) => s.set([{ oid, type: lib().ObjectType.Integer, value }], cb));
  }
}
