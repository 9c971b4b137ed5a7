/**
 * ironic_lib's auth_basic: an Apache htpasswd file whose entries must all be bcrypt digests,
 * checked at start (ConfigInvalid) and read again on every request, as ironic_lib does, so
 * edits take effect without a restart. Beyond ironic_lib: digests are checked off the event loop,
 * an unknown user costs the same bcrypt work as a known one (user names cannot be told apart by
 * timing), failures are limited per client address (429 with Retry-After, no bcrypt work), and
 * successful checks are remembered per (entry, password) digest so a client's every request does
 * not cost a bcrypt.
 */
import * as fs from 'node:fs';
import { createHash } from 'node:crypto';
import { checkPassword, costOf, decoyDigest } from './bcrypt-digest';
import { FailureLimiter } from './failure-limiter';

/** ironic_lib's exceptions (and the limiter's 429): status and message. */
export class BasicAuthFailure extends Error {
  constructor(readonly code: 400 | 401 | 429 | 500, message: string, readonly retryAfterSeconds?: number) {
    super(message);
  }

  /** The Basic challenge with a 401, Retry-After with a 429. */
  headers(): Record<string, string> {
    if (this.code === 401) return { 'WWW-Authenticate': 'Basic realm="Baremetal API"' };
    if (this.code === 429) return { 'Retry-After': String(this.retryAfterSeconds) };
    return {};
  }
}

const BCRYPT_PREFIXES = ['$2y$', '$2a$', '$2b$'];
const MAX_REMEMBERED = 10000;

function parseEntry(entry: string): { username: string; crypted: string } {
  const colon = entry.indexOf(':');
  const username = entry.slice(0, colon);
  const crypted = entry.slice(colon + 1);
  if (!BCRYPT_PREFIXES.includes(crypted.slice(0, 4))) {
    throw new BasicAuthFailure(500, `Invalid configuration file. Only bcrypt digested passwords are supported for ${username}`);
  }
  return { username, crypted };
}

/** The Authorization header's Basic token, with ironic_lib's messages for each malformation. */
function credentialsFrom(header: string | undefined): { username: string; password: Buffer } {
  if (header === undefined) throw new BasicAuthFailure(401, 'Authorization required');
  const parts = header.trim().split(/\s+/);
  if (parts.length < 2 || !parts[0]) throw new BasicAuthFailure(400, 'Could not parse Authorization header');
  const [type] = parts;
  const token = header.trim().slice(type.length).trim();
  if (type.toLowerCase() !== 'basic') throw new BasicAuthFailure(400, `Unsupported authorization type "${type}"`);
  // base64.b64decode(validate=True): only the alphabet and correct padding.
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(token) || token.length % 4 !== 0) {
    throw new BasicAuthFailure(400, 'Could not decode authorization token');
  }
  const pair = Buffer.from(token, 'base64');
  const colon = pair.indexOf(0x3a);
  if (colon < 0) throw new BasicAuthFailure(400, 'Could not decode authorization token');
  const username = pair.subarray(0, colon).toString('utf8');
  return { username, password: pair.subarray(colon + 1) };
}

/** A digest of the file's highest cost that nothing matches, for a user the file does not have. */
function decoyFor(entries: string[]): string {
  const costs = entries.map((line) => costOf(line.slice(line.indexOf(':') + 1)) ?? 0);
  return decoyDigest(Math.max(0, ...costs));
}

export class HtpasswdFile {
  private readonly verified = new Set<string>();
  private readonly limiter = new FailureLimiter();

  /** Validates the file now, as BasicAuthMiddleware's constructor does. */
  constructor(readonly path: string) {
    for (const entry of this.entries(true)) if (entry.includes(':')) parseEntry(entry);
  }

  private entries(atStart = false): string[] {
    let text: string;
    try {
      text = fs.readFileSync(this.path, 'utf8');
    } catch {
      throw new BasicAuthFailure(500, `Invalid configuration file. Problem reading auth user file${atStart ? `: ${this.path}` : ''}`);
    }
    return text.split('\n').map((line) => line.trim()).filter(Boolean);
  }

  /** The authenticated user name; throws BasicAuthFailure otherwise. */
  async authenticate(header: string | undefined, clientAddress: string): Promise<string> {
    const { username, password } = credentialsFrom(header);
    const admission = this.limiter.admit(clientAddress);
    if (!admission.allowed) {
      throw new BasicAuthFailure(429, `Too many failed authentication attempts, retry in ${admission.retryAfterSeconds} seconds`,
        admission.retryAfterSeconds);
    }
    try {
      await this.verify(username, password);
    } catch (err) {
      // Only a wrong user or password counts against the client; an unreadable file does not.
      if (!(err instanceof BasicAuthFailure && err.code === 401)) admission.refund();
      throw err;
    }
    admission.refund();
    return username;
  }

  private async verify(username: string, password: Buffer): Promise<void> {
    const entries = this.entries();
    const entry = entries.find((line) => line.startsWith(`${username}:`));
    if (!entry) {
      await checkPassword(password, decoyFor(entries));
      throw new BasicAuthFailure(401, 'Incorrect username or password');
    }
    const { crypted } = parseEntry(entry);
    const memo = createHash('sha256').update(entry).update('\0').update(password).digest('hex');
    if (this.verified.has(memo)) return;
    if (!await checkPassword(password, crypted)) throw new BasicAuthFailure(401, 'Incorrect username or password');
    if (this.verified.size >= MAX_REMEMBERED) this.verified.clear();
    this.verified.add(memo);
  }
}
