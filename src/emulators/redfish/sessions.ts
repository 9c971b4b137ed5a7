// Authentication of the emulated BMC: HTTP Basic and Redfish sessions (X-Auth-Token).

import { randomBytes, timingSafeEqual, createHash } from 'node:crypto';
import { IncomingHttpHeaders } from 'node:http';
import { EmulatorHttpError, RedfishObject } from './messages';

export interface EmulatorAuthOptions {
  username: string;
  password: string;
  /** Accept HTTP Basic credentials (default true). */
  basic?: boolean;
  /** Offer the SessionService (default true); when false, creating a session is refused with 405. */
  sessions?: boolean;
  /** Idle time after which a session is forgotten, like a BMC's SessionTimeout (default 1800 s). */
  sessionTimeoutSec?: number;
}

interface EmulatedSession {
  id: string;
  token: string;
  userName: string;
  createdAt: string;
  lastUsedMs: number;
}

export const SESSIONS_PATH = '/redfish/v1/SessionService/Sessions';

export class SessionStore {
  readonly sessions = new Map<string, EmulatedSession>();
  /** Every login attempt (successful or not), so tests can check session reuse. */
  loginAttempts = 0;
  private nextId = 1;

  constructor(readonly auth: EmulatorAuthOptions | null) {}

  get sessionsEnabled(): boolean {
    return this.auth === null || this.auth.sessions !== false;
  }

  get timeoutSec(): number {
    return this.auth?.sessionTimeoutSec ?? 1800;
  }

  get basicEnabled(): boolean {
    return this.auth !== null && this.auth.basic !== false;
  }

  login(userName: unknown, password: unknown): EmulatedSession {
    this.loginAttempts += 1;
    if (!this.sessionsEnabled) {
      throw new EmulatorHttpError(405, 'OperationNotAllowed', 'Session creation is disabled on this service.', [], { Allow: 'GET' });
    }
    if (typeof userName !== 'string' || typeof password !== 'string') {
      throw new EmulatorHttpError(400, 'PropertyMissing', 'UserName and Password are required to create a session.', ['UserName', 'Password']);
    }
    if (this.auth && !this.credentialsMatch(userName, password)) throw unauthorized(false);
    const session: EmulatedSession = {
      id: String(this.nextId++),
      token: randomBytes(24).toString('hex'),
      userName,
      createdAt: new Date().toISOString(),
      lastUsedMs: Date.now(),
    };
    this.sessions.set(session.id, session);
    return session;
  }

  logout(id: string): boolean {
    return this.sessions.delete(id);
  }

  /** Forget every session, as a BMC reboot or session timeout would. */
  expireAll(): void {
    this.sessions.clear();
  }

  /** Throws a 401 unless the request carries a valid token or (when enabled) Basic credentials. */
  authorize(headers: IncomingHttpHeaders): void {
    if (this.auth === null) return;
    const token = headers['x-auth-token'];
    if (typeof token === 'string' && token !== '') {
      const session = [...this.sessions.values()].find((s) => s.token === token);
      if (session && Date.now() - session.lastUsedMs <= this.timeoutSec * 1000) {
        session.lastUsedMs = Date.now();
        return;
      }
      if (session) this.sessions.delete(session.id);
      throw unauthorized(this.basicEnabled);
    }
    const basic = parseBasic(headers.authorization);
    if (basic && this.basicEnabled && this.credentialsMatch(basic.user, basic.password)) return;
    throw unauthorized(this.basicEnabled);
  }

  private credentialsMatch(user: string, password: string): boolean {
    if (!this.auth) return true;
    return sameSecret(user, this.auth.username) && sameSecret(password, this.auth.password);
  }
}

export function sessionJson(s: EmulatedSession): RedfishObject {
  return {
    '@odata.id': `${SESSIONS_PATH}/${s.id}`,
    '@odata.type': '#Session.v1_3_0.Session',
    Id: s.id,
    Name: `User Session ${s.id}`,
    UserName: s.userName,
    CreatedTime: s.createdAt,
  };
}

function unauthorized(offerBasic: boolean): EmulatorHttpError {
  const headers: Record<string, string> = offerBasic ? { 'WWW-Authenticate': 'Basic realm="Redfish"' } : {};
  return new EmulatorHttpError(401, 'InsufficientPrivilege', 'There are insufficient privileges for the account or credentials associated with the current session to perform the requested operation.', [], headers);
}

function parseBasic(header: string | undefined): { user: string; password: string } | null {
  if (!header || !/^basic /i.test(header)) return null;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

// Hash first so the comparison takes the same time whatever the lengths are.
function sameSecret(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}
