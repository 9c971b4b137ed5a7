/**
 * Hiding secrets in node dicts as Ironic's node_sanitize does without the show_password /
 * show_instance_secrets policies: oslo strutils.mask_dict_password on driver_info and instance_info,
 * then configdrive, image_url and the agent token replaced outright.
 */
import { pyTruthy } from '../../common/pyrepr';
import { StoredJson } from '../../db/stored-json';

export const SECRET = '******';

/** oslo.utils strutils._SANITIZE_KEYS: a key containing any of these (case-insensitively) is secret. */
const SANITIZE_KEYS = ['adminpass', 'admin_pass', 'password', 'admin_password', 'auth_token', 'new_pass',
  'auth_password', 'secret_uuid', 'secret', 'sys_pswd', 'token', 'configdrive', 'chappassword', 'encrypted_key',
  'private_key', 'fernetkey', 'sslkey', 'passphrase', 'cephclusterfsid', 'octaviaheartbeatkey', 'rabbitcookie',
  'cephmanilaclientkey', 'pacemakerremoteauthkey', 'designaterndckey', 'cephadminkey', 'heatauthencryptionkey',
  'cephclientkey', 'keystonecredential', 'barbicansimplecryptokek', 'cephrgwkey', 'swifthashsuffix',
  'migrationsshkey', 'cephmdskey', 'cephmonkey'];

function escapeRe(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** On lower-cased text: whether any sanitize key occurs (one scan instead of one per key). */
const ANY_KEY_IN_LOWER = new RegExp(SANITIZE_KEYS.map(escapeRe).join('|'));

/** The commonest of mask_password's patterns: `key=value`, `key="value"`, `"key": "value"`, `--key value`. */
function maskString(message: string): string {
  const lower = message.toLowerCase();
  if (!ANY_KEY_IN_LOWER.test(lower)) return message;
  let out = message;
  for (const key of SANITIZE_KEYS) {
    if (!lower.includes(key)) continue;
    const k = escapeRe(key);
    out = out
      .replace(new RegExp(`(${k}[0-9]*\\s*=\\s*["'])[^"']*(["'])`, 'gi'), `$1${SECRET}$2`)
      .replace(new RegExp(`(["'][^"']*${k}[0-9]*["']\\s*:\\s*u?["'])[^"']*(["'])`, 'gi'), `$1${SECRET}$2`)
      .replace(new RegExp(`([-]{2}${k}[0-9]*\\s+)[^'"=\\s]+(\\s*)`, 'gi'), `$1${SECRET}$2`)
      .replace(new RegExp(`(${k}[0-9]*\\s*=\\s*)[^\\s'"]+`, 'gi'), `$1${SECRET}`);
  }
  return out;
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** strutils.mask_dict_password(d, "******"): recursive on dicts, keys by name, string values by pattern. */
export function maskDictPassword(dict: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(dict)) {
    if (isMapping(value)) {
      out[key] = maskDictPassword(value);
      continue;
    }
    if (ANY_KEY_IN_LOWER.test(key.toLowerCase())) out[key] = SECRET;
    else out[key] = typeof value === 'string' ? maskString(value) : value;
  }
  return out;
}

export function maskInstanceInfo(info: Record<string, unknown>): Record<string, unknown> {
  const out = maskDictPassword(info);
  if (pyTruthy(out.configdrive)) out.configdrive = SECRET;
  if (pyTruthy(out.image_url)) out.image_url = SECRET;
  return out;
}

export function maskDriverInternalInfo(info: Record<string, unknown>): Record<string, unknown> {
  if (!pyTruthy(info.agent_secret_token)) return info;
  return { ...info, agent_secret_token: SECRET };
}

/** A dict column as a view receives it: decoded, or its stored text on list paths. */
export type DictColumn = Record<string, unknown> | StoredJson;

const ANY_SANITIZE_KEY = new RegExp(SANITIZE_KEYS.map(escapeRe).join('|'), 'i');
const ANY_INSTANCE_SECRET = new RegExp([...SANITIZE_KEYS, 'image_url'].map(escapeRe).join('|'), 'i');
const AGENT_TOKEN = /agent_secret_token/;

/**
 * Masks a dict column; stored text that names no secret key anywhere (keys and values are both
 * in the text) cannot change under the mask, so it is passed on unparsed.
 */
function maskColumn(value: DictColumn, mayHoldSecret: RegExp,
  mask: (d: Record<string, unknown>) => Record<string, unknown>): DictColumn {
  if (!(value instanceof StoredJson)) return mask(value);
  return mayHoldSecret.test(value.text) ? mask(value.parse() as Record<string, unknown>) : value;
}

export function maskDriverInfoColumn(value: DictColumn): DictColumn {
  return maskColumn(value, ANY_SANITIZE_KEY, maskDictPassword);
}

export function maskInstanceInfoColumn(value: DictColumn): DictColumn {
  return maskColumn(value, ANY_INSTANCE_SECRET, maskInstanceInfo);
}

export function maskDriverInternalInfoColumn(value: DictColumn): DictColumn {
  return maskColumn(value, AGENT_TOKEN, maskDriverInternalInfo);
}
