/**
 * Hiding secrets in a node's fields as Ironic 29.0.5's node_sanitize does without the show_password /
 * show_instance_secrets policies: strutils.mask_dict_password on driver_info, instance_info and
 * driver_internal_info, then the SNMP keys, configdrive and image_url replaced outright. Beyond
 * Ironic, the userinfo of every URL in any dict or string field is masked too (src/common/mask.ts
 * holds the masking).
 */
import { pyTruthy } from '../../common/python/truthiness';
import {
  jsonMayHoldUrlCredentials, jsonNamePrefilter, maskDictPassword, maskForEcho, maskUrlCredentials, maskUrlsDeep, SANITIZE_KEYS,
  SECRET,
} from '../../common/mask';
import { NODE_FIELD_REGISTRY, NodeMask } from '../../db/node-fields';
import { StoredJson } from '../../db/stored-json';

function maskInstanceInfo(info: Record<string, unknown>): Record<string, unknown> {
  const out = maskDictPassword(info);
  if (pyTruthy(out.configdrive)) out.configdrive = SECRET;
  if (pyTruthy(out.image_url)) out.image_url = SECRET;
  return out;
}

/**
 * Driver secrets whose names no password pattern catches, masked when set: SNMPv3 keys (as Ironic),
 * and beyond Ironic the ssh driver's private key (Ironic's old ssh driver showed it).
 */
const DRIVER_SECRETS = ['snmp_auth_key', 'snmp_priv_key', 'ssh_key_contents'];

function maskDriverInfo(info: Record<string, unknown>): Record<string, unknown> {
  const out = maskDictPassword(info);
  for (const key of DRIVER_SECRETS) if (pyTruthy(out[key])) out[key] = SECRET;
  return out;
}

/** The agent token alone: what an old-version lookup may see of driver_internal_info's token. */
export function maskDriverInternalInfo(info: Record<string, unknown>): Record<string, unknown> {
  if (!pyTruthy(info.agent_secret_token)) return info;
  return { ...info, agent_secret_token: SECRET };
}

/** A dict column as a view receives it: decoded, or its stored text on list paths. */
type DictColumn = Record<string, unknown> | StoredJson;

type DictMask = (d: Record<string, unknown>) => Record<string, unknown>;

interface FieldMask {
  /** Whether stored JSON text may change under `mask` (keys and values are both in the text). */
  mayChange(text: string): boolean;
  mask: DictMask;
}

const identity: DictMask = (d) => d;

const MASKS: Readonly<Record<NodeMask, FieldMask>> = {
  passwords: { mayChange: jsonNamePrefilter(SANITIZE_KEYS), mask: maskDictPassword },
  'driver-secrets': { mayChange: jsonNamePrefilter([...SANITIZE_KEYS, ...DRIVER_SECRETS]), mask: maskDriverInfo },
  'instance-secrets': { mayChange: jsonNamePrefilter([...SANITIZE_KEYS, 'image_url']), mask: maskInstanceInfo },
};

/** Each field's own mask, as the node field registry names it. */
const FIELD_MASKS: ReadonlyMap<string, FieldMask> = new Map(NODE_FIELD_REGISTRY
  .flatMap((f) => (f.mask === undefined ? [] : [[f.name, MASKS[f.mask]] as const])));

/** Other dict fields: only URLs are masked. */
const URLS_ONLY: FieldMask = { mayChange: () => false, mask: identity };

/** Whether the field has a mask of its own (Ironic's), beyond URL userinfo. */
export function hasFieldMask(field: string): boolean {
  return FIELD_MASKS.has(field);
}

/**
 * Whether a dict field's stored text needs decoding to be shown: it may hold a secret the field's
 * mask hides, or a URL with userinfo. Text that can hold neither is shown as stored (the list
 * paths' speed depends on this test being cheap and usually false).
 */
export function storedDictNeedsMask(field: string, text: string): boolean {
  return (FIELD_MASKS.get(field) ?? URLS_ONLY).mayChange(text) || jsonMayHoldUrlCredentials(text);
}

/** A decoded dict field as the API shows it: the field's own mask, then URL userinfo. */
export function maskNodeDict(field: string, dict: Record<string, unknown>): Record<string, unknown> {
  return maskUrlsDeep((FIELD_MASKS.get(field) ?? URLS_ONLY).mask(dict)) as Record<string, unknown>;
}

/** A dict field for the view: stored text passed on unparsed when masking cannot change it. */
function maskDictColumn(field: string, value: DictColumn): DictColumn {
  if (!(value instanceof StoredJson)) return maskNodeDict(field, value);
  return storedDictNeedsMask(field, value.text) ? maskNodeDict(field, value.parse() as Record<string, unknown>) : value;
}

function isDict(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Any shown field's value with its secrets masked: dicts by the field's mask, strings' URL userinfo. */
export function maskNodeField(field: string, value: unknown): unknown {
  if (value instanceof StoredJson || isDict(value)) return maskDictColumn(field, value);
  return typeof value === 'string' ? maskUrlCredentials(value) : value;
}

export function maskDriverInfoColumn(value: DictColumn): DictColumn {
  return maskDictColumn('driver_info', value);
}

export function maskInstanceInfoColumn(value: DictColumn): DictColumn {
  return maskDictColumn('instance_info', value);
}

export function maskDriverInternalInfoColumn(value: DictColumn): DictColumn {
  return maskDictColumn('driver_internal_info', value);
}

/** A member of a dict, or undefined: own properties only (the path comes from a request). */
function memberOf(value: unknown, key: string): unknown {
  if (value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) return /^\d+$/.test(key) ? value[Number(key)] : undefined;
  return Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}

/**
 * A node PATCH error's echo of the stored value at `path` (jsonpatch.ts's EchoMask): the value as
 * the node views show it (the field's own mask, URL userinfo), then masked by key as any echo is.
 * A path into a value the view replaces outright (image_url, configdrive) shows the mask.
 */
export function nodeEchoMask(path: readonly string[], value: unknown, root: unknown): unknown {
  if (path.length === 0) {
    const doc = isDict(value) ? value : {};
    return maskForEcho(Object.fromEntries(Object.entries(doc).map(([field, v]) => [field, maskNodeField(field, v)])));
  }
  let shown = maskNodeField(path[0], memberOf(root, path[0]));
  for (const part of path.slice(1)) {
    if (shown === SECRET) break;
    shown = memberOf(shown, part);
  }
  return maskForEcho(shown === undefined ? value : shown, path[path.length - 1]);
}
