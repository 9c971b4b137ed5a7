// Redfish sessions shared by every client in the process, keyed by BMC address + user (as Ironic's
// SessionCache), so consecutive operations on one node reuse a single BMC session. A cached session is
// only handed out to a caller presenting the same password, so a wrong password never rides on it.

import { createHash } from 'node:crypto';

interface CachedSession {
  token: string;
  /** The session resource (Location of the login), used to log out. */
  location: string | null;
}

interface Entry extends CachedSession {
  secret: string;
}

const MAX_ENTRIES = 1000;
const cache = new Map<string, Entry>();

export function sessionKey(origin: string, rootPrefix: string, username: string): string {
  return `${origin}${rootPrefix}\u0000${username}`;
}

export function lookupSession(key: string, password: string): CachedSession | null {
  const entry = cache.get(key);
  if (!entry || entry.secret !== fingerprint(password)) return null;
  return { token: entry.token, location: entry.location };
}

export function storeSession(key: string, password: string, session: CachedSession): void {
  cache.delete(key);
  cache.set(key, { ...session, secret: fingerprint(password) });
  // Oldest first (Map keeps insertion order): bounded like Ironic's [redfish]connection_cache_size.
  while (cache.size > MAX_ENTRIES) {
    const oldest = cache.keys().next().value;
    if (oldest === undefined) break;
    cache.delete(oldest);
  }
}

/** Drops the entry only if it still holds this token (another client may have re-logged in meanwhile). */
export function forgetSession(key: string, token?: string): void {
  const entry = cache.get(key);
  if (entry && (token === undefined || entry.token === token)) cache.delete(key);
}

export function clearSessionCache(): void {
  cache.clear();
}

export function cachedSessionCount(): number {
  return cache.size;
}

function fingerprint(password: string): string {
  return createHash('sha256').update(password).digest('hex');
}
