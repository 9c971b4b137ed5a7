/**
 * Dashboard sessions, kept in the API process's memory: a random 256-bit id (the cookie) and a
 * random CSRF token per session, an idle timeout and an absolute one (capped by the Keystone
 * token's own expiry), and a bound on how many are kept (the oldest go first).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Identity } from '../auth/identity';

export interface Session {
  readonly id: string;
  readonly csrfToken: string;
  readonly user: string;
  readonly project: string | null;
  readonly roles: string[];
  /** The validated Keystone identity (keystone only); null under noauth and http_basic. */
  readonly identity: Identity | null;
  /** The user's Keystone token (keystone only), validated again on use; never sent to the browser. */
  readonly token: string | null;
  readonly expiresAt: number;
  lastSeen: number;
}

interface SessionLimits {
  idleMs: number;
  maxAgeMs: number;
  maxSessions: number;
}

export type NewSession = Pick<Session, 'user' | 'project' | 'roles' | 'identity' | 'token'>;

const COOKIE_NAME = 'ironic_ts_session';

function token(): string {
  return randomBytes(32).toString('base64url');
}

/** Constant-time comparison of a presented secret with the expected one. */
export function sameSecret(presented: string, expected: string): boolean {
  const a = Buffer.from(presented, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

export class SessionStore {
  private readonly sessions = new Map<string, Session>();

  constructor(private readonly limits: SessionLimits, private readonly now: () => number = Date.now) {}

  create(values: NewSession): Session {
    const now = this.now();
    const tokenExpiry = values.identity?.expiresAt ?? Number.POSITIVE_INFINITY;
    const session: Session = {
      ...values, id: token(), csrfToken: token(), lastSeen: now, expiresAt: Math.min(now + this.limits.maxAgeMs, tokenExpiry),
    };
    this.makeRoom();
    this.sessions.set(session.id, session);
    return session;
  }

  /** The live session of this id (touching it), or null. */
  get(id: string | null): Session | null {
    if (!id) return null;
    const session = this.sessions.get(id);
    if (!session) return null;
    const now = this.now();
    if (now >= session.expiresAt || now - session.lastSeen >= this.limits.idleMs) {
      this.sessions.delete(id);
      return null;
    }
    session.lastSeen = now;
    return session;
  }

  delete(id: string): void {
    this.sessions.delete(id);
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Sessions are kept in creation order: drop the expired, then the oldest, below the bound. */
  private makeRoom(): void {
    if (this.sessions.size < this.limits.maxSessions) return;
    const now = this.now();
    for (const [id, s] of this.sessions) {
      if (now >= s.expiresAt || now - s.lastSeen >= this.limits.idleMs) this.sessions.delete(id);
    }
    for (const id of this.sessions.keys()) {
      if (this.sessions.size < this.limits.maxSessions) return;
      this.sessions.delete(id);
    }
  }
}

/** The session cookie's value from a Cookie header, or null. */
export function sessionCookie(header: string | undefined): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === COOKIE_NAME) return part.slice(eq + 1).trim() || null;
  }
  return null;
}

export function setCookieHeader(session: Session | null, secure: boolean): string {
  const attrs = ['HttpOnly', 'SameSite=Strict', 'Path=/dashboard', ...(secure ? ['Secure'] : [])];
  if (!session) return [`${COOKIE_NAME}=`, 'Max-Age=0', ...attrs].join('; ');
  const maxAge = Math.max(0, Math.floor((session.expiresAt - Date.now()) / 1000));
  return [`${COOKIE_NAME}=${session.id}`, `Max-Age=${Math.min(maxAge, 2147483647)}`, ...attrs].join('; ');
}
