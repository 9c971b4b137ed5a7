/**
 * Secrets out of text and dicts: the one masking of ironic-ts. Node views, API faults, JSON-RPC
 * errors, echoed dicts and log lines all mask through here.
 *
 * maskPassword / maskDictPassword are oslo.utils 8.2.0's strutils.mask_password /
 * mask_dict_password (the version Ironic 2025.1 runs): the same keys, the same patterns applied in
 * the same order, with Python's `re` semantics reproduced where JavaScript's differ. One deliberate
 * step past 8.2.0: lists inside dicts are masked too, as oslo.utils 10.1 does ("Fix shallow masking
 * of secrets"), because this project promises that secrets never appear in its output.
 *
 * maskUrlCredentials is an ironic-ts addition beyond Ironic: the userinfo of URLs.
 */

export const SECRET = '******';

/** strutils._SANITIZE_KEYS (8.2.0): a key containing any of these, lower-cased, is secret. */
export const SANITIZE_KEYS: readonly string[] = ['adminpass', 'admin_pass', 'password', 'admin_password',
  'auth_token', 'new_pass', 'auth_password', 'secret_uuid', 'secret', 'sys_pswd', 'token', 'configdrive',
  'chappassword', 'encrypted_key', 'private_key', 'fernetkey', 'sslkey', 'passphrase', 'cephclusterfsid',
  'octaviaheartbeatkey', 'rabbitcookie', 'cephmanilaclientkey', 'pacemakerremoteauthkey', 'designaterndckey',
  'cephadminkey', 'heatauthencryptionkey', 'cephclientkey', 'keystonecredential', 'barbicansimplecryptokek',
  'cephrgwkey', 'swifthashsuffix', 'migrationsshkey', 'cephmdskey', 'cephmonkey', 'chapsecret'];

/*
 * Python's `re` on str, in JavaScript terms (checked over all of Unicode against CPython 3.11):
 * `\s` is str.isspace() (JavaScript's \s lacks \x1c-\x1f and \x85 and adds \ufeff); under
 * IGNORECASE Python also matches U+0130 and U+0131 to `i` and to [A-z], JavaScript's case folding
 * does not. The `u` flag gives the rest (U+017F ~ s, U+212A ~ k) as Python has it.
 */
const SPACE = '\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const S = `[${SPACE}]`;
const NOT_S = `[^${SPACE}]`;
const LETTER = '[A-z\\u0130\\u0131]';

/** The key as a pattern: letters plain (the `i` flag folds them), `i` with Python's extra matches. */
function keySource(key: string): string {
  return key.replace(/i/g, '[i\\u0130\\u0131]');
}

/** _FORMAT_PATTERNS_2, in oslo's order: groups 1 and 2 kept around the secret. */
function patterns2(k: string): string[] {
  return [
    `(${k}[0-9]*${S}*=${S}*["'])[^"']*(["'])`,
    `(${k}[0-9]*${S}*=${S}*")[^"]*(")`,
    `(${k}[0-9]*${S}*=${S}*')[^']*(')`,
    `(${k}[0-9]*${S}+["'])[^"']*(["'])`,
    `(--${k}[0-9]*${S}+)[^'^"^=^${SPACE}]+(${S}*)`,
    `(<${k}[0-9]*>)[^<]*(</${k}[0-9]*>)`,
    `(["']${k}[0-9]*["']${S}*:${S}*["'])[^"']*(["'])`,
    `(['"][^"']*${k}[0-9]*['"]${S}*:${S}*u?['"])[^"']*(['"])`,
    `(['"][^'"]*${k}[0-9]*['"]${S}*,${S}*'--?${LETTER}+'${S}*,${S}*u?['"])[^"']*(['"])`,
    `(${k}[0-9]*${S}*--?${LETTER}+${S}*)${NOT_S}+(${S}*)`,
  ];
}

/** _FORMAT_PATTERNS_1: group 1 kept before the secret. */
function patterns1(k: string): string[] {
  return [`(${k}[0-9]*${S}*=${S}*)[^${SPACE}^'"]+`];
}

/** _FORMAT_PATTERNS_WILDCARD: only group 1 kept, so a quoted password's quoted tail goes too. */
function patternsWildcard(k: string): string[] {
  return [`(['"][^"']*${k}[0-9]*['"]${S}*:${S}*u?['"].*['"])[^"']*(['"])`];
}

interface KeyPatterns {
  key: string;
  two: RegExp[];
  one: RegExp[];
  wildcard: RegExp[];
}

/** re.DOTALL | re.IGNORECASE, every match replaced (re.sub). */
const compile = (source: string): RegExp => new RegExp(source, 'gisu');

const KEY_PATTERNS: readonly KeyPatterns[] = SANITIZE_KEYS.map((key) => {
  const k = keySource(key);
  return { key, two: patterns2(k).map(compile), one: patterns1(k).map(compile), wildcard: patternsWildcard(k).map(compile) };
});

/** On lower-cased text: whether any sanitize key occurs (one scan instead of one per key). */
const ANY_KEY_IN_LOWER = new RegExp(SANITIZE_KEYS.join('|'));

/** Whether a key names a secret (mask_dict_password's `sani_key in k.lower()`). */
function isSecretKey(key: string): boolean {
  return ANY_KEY_IN_LOWER.test(key.toLowerCase());
}

function applyKey(message: string, p: KeyPatterns, secret: string): string {
  let out = message;
  for (const re of p.two) out = out.replace(re, (_m, a: string, b: string) => a + secret + b);
  for (const re of p.one) out = out.replace(re, (_m, a: string) => a + secret);
  for (const re of p.wildcard) out = out.replace(re, (_m, a: string) => a);
  return out;
}

/** strutils.mask_password: each key found in the (current, lower-cased) message gets its patterns. */
export function maskPassword(message: string, secret: string = SECRET): string {
  let lower = message.toLowerCase();
  if (!ANY_KEY_IN_LOWER.test(lower)) return message;
  let out = message;
  for (const p of KEY_PATTERNS) {
    if (!lower.includes(p.key)) continue;
    const next = applyKey(out, p, secret);
    if (next !== out) {
      out = next;
      lower = out.toLowerCase();
    }
  }
  return out;
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A value inside a masked dict: dicts by key, strings by pattern, lists item by item (oslo 10.1). */
function maskNested(value: unknown, secret: string): unknown {
  if (isMapping(value)) return maskDictPassword(value, secret);
  if (typeof value === 'string') return maskPassword(value, secret);
  if (Array.isArray(value)) return value.map((v) => maskNested(v, secret));
  return value;
}

/** One entry of mask_dict_password: a secret key's value replaced outright unless it is a dict. */
function maskEntry(key: string, value: unknown, secret: string): unknown {
  return !isMapping(value) && isSecretKey(key) ? secret : maskNested(value, secret);
}

/**
 * strutils.mask_dict_password: each entry masked by its key, dicts recursively, strings by pattern.
 * Built with Object.fromEntries, which defines own properties, so a stored `__proto__` key stays a key.
 */
export function maskDictPassword(dict: Record<string, unknown>, secret: string = SECRET): Record<string, unknown> {
  return Object.fromEntries(Object.entries(dict).map(([key, value]) => [key, maskEntry(key, value, secret)]));
}

/** Where the authority starting at `start` ends: at `/`, `?`, `#` or the end of the text. */
function authorityEnd(text: string, start: number): { end: number; lastAt: number } {
  let lastAt = -1;
  let j = start;
  for (; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 0x2f || c === 0x3f || c === 0x23) break;
    if (c === 0x40) lastAt = j;
  }
  return { end: j, lastAt };
}

/**
 * Every URL's userinfo replaced by the secret, the rest kept byte for byte:
 * `https://admin:pw@bmc/redfish` becomes `https://******@bmc/redfish`. The userinfo is everything
 * after `://` up to the authority's last `@`; the authority ends only at `/`, `?` or `#`
 * (urllib.parse.urlsplit's netloc, what HTTP clients send as credentials), so a password holding
 * spaces or quotes is covered too; in prose this may mask more than the userinfo, never less. One
 * forward pass (no regex backtracking), so long text costs linear time.
 */
export function maskUrlCredentials(text: string): string {
  if (!text.includes('@') || !text.includes('://')) return text;
  let out = '';
  let copied = 0;
  let i = text.indexOf('://');
  while (i !== -1) {
    const start = i + 3;
    const { end, lastAt } = authorityEnd(text, start);
    if (lastAt > start) {
      out += text.slice(copied, start) + SECRET;
      copied = lastAt;
    }
    // The authority may end inside another `://` (its first `/`), so look again from just before it.
    i = end >= text.length ? -1 : text.indexOf('://', Math.max(end - 1, start));
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** URL userinfo masked in every string inside a JSON value (keys included). */
export function maskUrlsDeep(value: unknown): unknown {
  if (typeof value === 'string') return maskUrlCredentials(value);
  if (Array.isArray(value)) return value.map(maskUrlsDeep);
  if (!isMapping(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [maskUrlCredentials(key), maskUrlsDeep(v)]));
}

/**
 * Kernel command line arguments that carry secrets oslo's patterns miss: the iscsi deploy's one-time
 * key, which the deploy ramdisk's PXE config holds and its debug log line would repeat.
 */
const SECRET_KERNEL_ARGS = /\b(deployment_key=)[^\s'"]+/g;

/** A free-text message (fault, RPC error, log line): oslo's patterns, kernel arguments, then URL userinfo. */
export function maskMessage(message: string): string {
  return maskUrlCredentials(maskPassword(message).replace(SECRET_KERNEL_ARGS, `$1${SECRET}`));
}

/**
 * Stored data about to be echoed in a message: dicts masked by key, strings by pattern, URLs'
 * userinfo; `key`, when the value was found under one, masks it as mask_dict_password would.
 */
export function maskForEcho(value: unknown, key?: string): unknown {
  return maskUrlsDeep(key === undefined ? maskNested(value, SECRET) : maskEntry(key, value, SECRET));
}

/**
 * JSON text escaping an ASCII character (canonical JSON never does) or holding the Kelvin sign
 * (which lower-cases to `k`): a prefilter cannot read such text, so it is decoded and masked.
 */
const UNREADABLE_JSON = /\\u(?:00[2-7][0-9a-f]|212a)/i;

function unreadableJson(text: string): boolean {
  return (text.includes('\\u') && UNREADABLE_JSON.test(text)) || text.includes('\u212a');
}

/**
 * A test on stored JSON text that is false only when, decoded, the text can hold none of `names`
 * (matched as mask_dict_password matches keys: case-insensitively, anywhere in keys or values).
 * The node list paths rely on it being cheap and usually false.
 */
export function jsonNamePrefilter(names: readonly string[]): (text: string) => boolean {
  if (names.length === 0) return unreadableJson;
  const re = new RegExp(names.join('|'), 'i');
  return (text) => re.test(text) || unreadableJson(text);
}

/** Without one of these, JSON text holds neither an `@` nor an escape nor the Kelvin sign. */
const URL_OR_UNREADABLE = /[@\\\u212a]/;

/** JSON text that, decoded, might hold a URL with userinfo: mostly one scan for three characters. */
export function jsonMayHoldUrlCredentials(text: string): boolean {
  if (!URL_OR_UNREADABLE.test(text)) return false;
  return (text.includes('@') && text.includes('://')) || unreadableJson(text);
}
