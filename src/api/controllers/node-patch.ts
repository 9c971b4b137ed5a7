/**
 * PATCH /v1/nodes/{ident} (NodesController.patch of Ironic 21.4.4): the patch document and its
 * paths checked before the node is loaded, then Ironic's state rules, the patch applied to the
 * node's dict, the result re-validated, and only the changed fields sent to the conductor.
 */
import { notifyApiChange } from '../../notifications/events';
import { apiNotifyContext } from '../notify-context';
import { ClientSideError, Invalid, InvalidParameterValue, NotAcceptable } from '../../common/errors';
import { UPDATE_ALLOWED_STATES } from '../../common/states';
import type { NodeRecord } from '../../db/models';
import { DICT_FIELDS, OBJECT_FIELDS, PATCH_ALLOWED_FIELDS } from '../../db/node-field-lists';
import * as nodesRepo from '../../db/repositories/nodes';
import { applyJsonPatch, PatchOp } from '../jsonpatch';
import { baseUrl } from '../links';
import { getNodeByPathIdent, NodeRecord as LoadedNode } from '../node-lookup';
import * as args from '../schemas/args';
import { NODE_DESCRIPTION_MAX_LENGTH, NODE_PATCH_RESULT_SCHEMA, validateNodeBody } from '../schemas/node';
import { bestMatch, iterErrors } from '../schemas/jsonschema';
import { readQuery } from '../schemas/list-query';
import { NETWORK_DATA_SCHEMA } from '../schemas/network-data';
import { checkAllowedPatchFields, patchValues, readPatch } from '../schemas/patch';
import type { ApiContext } from '../state';
import { V } from '../versions';
import { nodeEchoMask } from '../views/node-masking';
import { disallowedFields, nodeView } from '../views/node';
import { hostOfTopic, loadNodeExtras } from '../views/node-extras';
import { chassisIdForBody, checkNamesAcceptable } from './node-create';
import { patchedLinkedNode } from './node-link';
import { bodyOrEmpty, conductorTopic } from './node-actions/params';

function validatePatch(ctx: ApiContext, patch: PatchOp[], resetInterfaces: boolean | null): void {
  checkAllowedPatchFields(patch, PATCH_ALLOWED_FIELDS);
  for (const field of disallowedFields(ctx.state.version)) {
    if (patchValues(patch, `/${field}`).length > 0) throw new NotAcceptable();
  }
  if (patchValues(patch, '/traits').length > 0) {
    throw new Invalid('Cannot update node traits via node patch. Node traits should be updated via the node traits API.');
  }
  if (resetInterfaces && patchValues(patch, '/driver').length === 0) {
    throw new Invalid("The reset_interfaces parameter can only be used when changing the node's driver.");
  }
  const description = patchValues(patch, '/description');
  if (description.length > 0 && typeof description[0] === 'string' && [...description[0]].length > NODE_DESCRIPTION_MAX_LENGTH) {
    throw new Invalid(`Cannot update node with description exceeding ${NODE_DESCRIPTION_MAX_LENGTH} characters`);
  }
  for (const networkData of patchValues(patch, '/network_data')) {
    // validate_network_data: a whole document each time (so {} is refused), message with Ironic's trailing space.
    const best = bestMatch(iterErrors(networkData, NETWORK_DATA_SCHEMA));
    if (best) throw new Invalid(`Invalid network_data: ${best.message} `);
  }
}

async function checkNodeState(ctx: ApiContext, node: NodeRecord, patch: PatchOp[], ident: string): Promise<void> {
  const onlyRemovesInstance = patch.length === 1 && patch[0].op === 'remove' && patch[0].path === '/instance_uuid'
    && Object.keys(patch[0]).length === 2;
  if (node.maintenance && onlyRemovesInstance) return;
  if (node.target_provision_state && !UPDATE_ALLOWED_STATES.includes(node.provision_state ?? '')) {
    throw new ClientSideError(`Node ${ident} can not be updated while a state transition is in progress.`, 409);
  }
  if (node.provision_state === 'inspecting' && ctx.state.version >= V.INSPECT_WAIT) {
    throw new ClientSideError(`Cannot update node "${node.uuid}" while it is in state "inspecting".`, 409);
  }
  if (patchValues(patch, '/owner').length > 0 && node.allocation_id) {
    const alloc = await ctx.state.deps.db.knex('allocations').select('owner').where({ id: node.allocation_id }).first() as
      { owner: string | null } | undefined;
    if (alloc && alloc.owner !== null) {
      throw new ClientSideError(`Cannot update owner of node "${node.uuid}" while it is allocated to an allocation with an  owner.`, 409);
    }
  }
}

function asDict(node: LoadedNode, chassisUuid: string | null): Record<string, unknown> {
  const record = node as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  // Ironic's JSON columns never hold NULL (None is stored as {}).
  for (const field of OBJECT_FIELDS) out[field] = record[field] ?? (DICT_FIELDS.has(field) ? {} : null);
  out.traits = node.traits.map((t) => t.trait);
  out.chassis_uuid = chassisUuid;
  return out;
}

export async function chassisUuidOf(ctx: ApiContext, chassisId: number | null): Promise<string | null> {
  if (chassisId === null) return null;
  const row = await ctx.state.deps.db.knex('chassis').select('uuid').where({ id: chassisId }).first() as
    { uuid: string } | undefined;
  return row?.uuid ?? null;
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** _update_changed_fields: the schema fields whose patched value differs from the node's. */
async function changedFields(ctx: ApiContext, node: LoadedNode, patched: Record<string, unknown>):
  Promise<Partial<NodeRecord>> {
  const chassisId = await chassisIdForBody(ctx, patched.chassis_uuid);
  const group = patched.conductor_group;
  // Ironic fails here in Python (KeyError, AttributeError) with a 500; the client gets a 400.
  if (group === undefined) throw new InvalidParameterValue("'conductor_group' is a mandatory attribute and can not be removed");
  if (typeof group !== 'string') throw new InvalidParameterValue('conductor_group cannot be None; "" means no conductor group');
  patched.conductor_group = group.toLowerCase();
  if (patched.protected === null || patched.protected === undefined) patched.protected = false;
  const record = node as unknown as Record<string, unknown>;
  const changes: Record<string, unknown> = {};
  const schemaFields = Object.keys(NODE_PATCH_RESULT_SCHEMA.properties ?? {});
  for (const field of OBJECT_FIELDS) {
    if (field === 'chassis_id') {
      if (!sameValue(record.chassis_id, chassisId)) changes.chassis_id = chassisId;
    } else if (schemaFields.includes(field)) {
      const value = patched[field] ?? null;
      if (!sameValue(record[field], value)) changes[field] = value;
    }
  }
  if (node.chassis_id && changes.chassis_id === null && ctx.state.version < V.UNSET_CHASSIS) throw new NotAcceptable();
  return changes as Partial<NodeRecord>;
}

export async function patchNode(ctx: ApiContext, ident: string): Promise<void> {
  const q = readQuery(ctx, ['reset_interfaces']);
  const resetInterfaces = args.boolean('reset_interfaces', q.reset_interfaces);
  const patch = readPatch(bodyOrEmpty(ctx));
  if (resetInterfaces !== null && ctx.state.version < V.RESET_INTERFACES) throw new NotAcceptable();
  validatePatch(ctx, patch, resetInterfaces);
  const node = await getNodeByPathIdent(ctx, ident);
  const parent = await patchedLinkedNode(ctx, node, patch, 'parent_node');
  await checkNodeState(ctx, node, patch, ident);
  const names = patchValues(patch, '/name');
  if (names.length > 0) {
    checkNamesAcceptable(ctx, names, (name) => `Node ${ident}: Cannot change name to invalid name '${name}'`);
  }
  const doc = applyJsonPatch(asDict(node, await chassisUuidOf(ctx, node.chassis_id)), patch, nodeEchoMask);
  if (parent !== null) doc.parent_node = parent.uuid;
  const schemaFields = NODE_PATCH_RESULT_SCHEMA.properties ?? {};
  for (const key of Object.keys(doc)) if (!Object.hasOwn(schemaFields, key)) delete doc[key];
  const patched = validateNodeBody('patch', doc, NODE_PATCH_RESULT_SCHEMA);
  const changes = await changedFields(ctx, node, patched);
  const target = { ...node, ...changes };
  const topic = await conductorTopic(ctx, { uuid: node.uuid, driver: target.driver, conductor_group: target.conductor_group }, true);
  if ('driver' in changes && node.console_enabled) {
    throw new ClientSideError(`Node ${ident} can not update the driver while the console is enabled. Please stop the console first.`, 409);
  }
  const chassisUuid = await chassisUuidOf(ctx, node.chassis_id);
  // The start and error notifications describe the node as loaded, the end one the node as saved.
  let savedChassisUuid = chassisUuid;
  const fresh = await notifyApiChange(apiNotifyContext(ctx), 'node', 'update', node, async () => {
    await ctx.state.deps.conductor.updateNode(node.uuid, changes, resetInterfaces ?? undefined);
    // Ironic answers with the node as saved under the conductor's lock, so it shows that reservation.
    const saved = { ...await nodesRepo.get(ctx.state.deps.db, node.uuid), reservation: hostOfTopic(topic) };
    if (saved.chassis_id !== node.chassis_id) savedChassisUuid = await chassisUuidOf(ctx, saved.chassis_id);
    return saved;
  }, { chassis_uuid: chassisUuid }, () => ({ chassis_uuid: savedChassisUuid }));
  const extras = await loadNodeExtras(ctx, [fresh], null);
  ctx.body = nodeView(fresh, { base: baseUrl(ctx), version: ctx.state.version, fields: null }, extras.get(fresh.id) ?? {});
}
