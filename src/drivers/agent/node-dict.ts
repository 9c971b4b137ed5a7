/**
 * What the agent's step commands receive of the node: node.as_dict(secure=True), the whole Node
 * object as Ironic serialises it for agent_client. The agent reads more than the image facts:
 * driver_info (burn-in options), target_raid_config (raid.create_configuration), properties
 * (root device hints) and instance_info.
 */
import { maskDictPassword, maskUrlsDeep, SECRET } from '../../common/mask';
import type { NodeRecord } from '../../db/models';
import { OBJECT_FIELDS } from '../../db/node-field-lists';
import { listTraits } from '../../db/repositories/node-traits';
import type { DriverTask, JsonObject } from '../base';

/** The dicts as_dict(secure=True) passes through mask_dict_password. */
const SECURE_DICTS = ['driver_info', 'instance_info', 'driver_internal_info'] as const;

/**
 * A datetime as jsonutils.dumps writes it (to_primitive: timeutils.PERFECT_TIME_FORMAT,
 * '%Y-%m-%dT%H:%M:%S.%f', no zone).
 */
function perfectTime(value: Date): string {
  return value.toISOString().replace('Z', '000');
}

function primitive(value: unknown): unknown {
  return value instanceof Date ? perfectTime(value) : value;
}

function dictOf(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? value as Record<string, unknown> : {};
}

interface NodeDictOptions {
  /** as_dict's mask_configdrive: execute_deploy_step sends the configdrive itself (write_image needs it). */
  maskConfigdrive?: boolean;
}

/**
 * Node.as_dict(secure=True, mask_configdrive): every Node object field, traits as their list
 * object, the three secret-holding dicts masked. Beyond Ironic, as everywhere in ironic-ts, URL
 * userinfo is masked too (IPA logs the parameters of the commands it runs).
 */
export async function agentNodeDict(task: DriverTask, opts: NodeDictOptions = {}): Promise<JsonObject> {
  const node = task.node;
  const out: JsonObject = {};
  for (const field of OBJECT_FIELDS) out[field] = primitive((node as unknown as Record<string, unknown>)[field] ?? null);
  const traits = await listTraits(task.ctx.db, node.id);
  out.traits = {
    objects: traits.map((t) => ({
      created_at: primitive(t.created_at), updated_at: primitive(t.updated_at), node_id: String(t.node_id), trait: t.trait,
    })),
  };
  Object.assign(out, secureDicts(node, opts.maskConfigdrive ?? true));
  return out;
}

/** The secure part of as_dict: instance_info's configdrive taken out, masked on its own. */
function secureDicts(node: NodeRecord, maskConfigdrive: boolean): JsonObject {
  const { configdrive, ...instanceInfo } = dictOf(node.instance_info);
  const dicts: Record<(typeof SECURE_DICTS)[number], Record<string, unknown>> = {
    driver_info: dictOf(node.driver_info), instance_info: instanceInfo, driver_internal_info: dictOf(node.driver_internal_info),
  };
  const out: JsonObject = {};
  for (const name of SECURE_DICTS) out[name] = maskUrlsDeep(maskDictPassword(dicts[name])) as JsonObject;
  if (configdrive !== undefined) (out.instance_info as JsonObject).configdrive = maskConfigdrive ? SECRET : configdrive as JsonObject;
  return out;
}
