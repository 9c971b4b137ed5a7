/**
 * OpenSSH known_hosts matching (sshd(8) "SSH_KNOWN_HOSTS FILE FORMAT"): plain and hashed
 * (`|1|salt|hmac`) host patterns, `[host]:port` for non-default ports, `*`/`?` wildcards and `!`
 * negation, `@revoked` keys. `@cert-authority` lines are skipped: host certificates are not checked.
 */
import { createHash, createHmac } from 'node:crypto';

type HostKeyVerdict = 'known' | 'unknown' | 'changed' | 'revoked';

interface Entry {
  marker: string | null;
  patterns: string;
  key: string;
}

function parseLine(line: string): Entry | null {
  const fields = line.trim().split(/\s+/);
  if (fields.length === 0 || fields[0] === '' || fields[0].startsWith('#')) return null;
  const marker = fields[0].startsWith('@') ? fields.shift() ?? null : null;
  if (fields.length < 3) return null;
  return { marker, patterns: fields[0], key: fields[2] };
}

/** The name known_hosts stores: `host`, or `[host]:port` off port 22. */
function hostEntryName(host: string, port: number): string {
  return port === 22 ? host : `[${host}]:${port}`;
}

function wildcardMatch(pattern: string, name: string): boolean {
  const source = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${source}$`, 'i').test(name);
}

function hashedMatch(pattern: string, name: string): boolean {
  const [, magic, salt, digest] = pattern.split('|');
  if (magic !== '1' || !salt || !digest) return false;
  return createHmac('sha1', Buffer.from(salt, 'base64')).update(name).digest('base64') === digest;
}

function patternsMatch(patterns: string, name: string): boolean {
  if (patterns.startsWith('|')) return hashedMatch(patterns, name);
  let matched = false;
  for (const pattern of patterns.split(',')) {
    if (pattern.startsWith('!')) {
      if (wildcardMatch(pattern.slice(1), name)) return false;
    } else if (wildcardMatch(pattern, name)) {
      matched = true;
    }
  }
  return matched;
}

/** What the known_hosts text says of `key` (the server's public key blob) for host:port. */
export function checkKnownHosts(text: string, host: string, port: number, key: Buffer): HostKeyVerdict {
  const name = hostEntryName(host, port);
  const offered = key.toString('base64');
  let listed = false;
  for (const entry of text.split('\n').map(parseLine)) {
    if (!entry || entry.marker === '@cert-authority' || !patternsMatch(entry.patterns, name)) continue;
    if (entry.marker === '@revoked') {
      if (entry.key === offered) return 'revoked';
      continue;
    }
    if (entry.key === offered) return 'known';
    listed = true;
  }
  return listed ? 'changed' : 'unknown';
}

/** The key's fingerprint as `ssh-keygen -l` prints it: SHA256:<unpadded base64>. */
export function sha256Fingerprint(key: Buffer): string {
  return `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;
}
