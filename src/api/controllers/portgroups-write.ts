/** Portgroup create/update/delete (portgroup.py post/patch/delete), writes through the conductor. */
import { notifyApiChange } from '../../notifications/events';
import { apiNotifyContext, uuidOfRow } from '../notify-context';
import { randomUUID } from 'node:crypto';
import {
  Conflict, ObjectFieldError, InvalidParameterValue, NotAcceptable } from '../../common/errors';
import type { NodeRecord, PortgroupRecord } from '../../db/models';
import * as nodesRepo from '../../db/repositories/nodes';
import { applyJsonPatch } from '../jsonpatch';
import { baseUrl } from '../links';
import { getNodeForBodyUuid } from '../node-lookup';
import { patchedLinkedNode } from './node-link';
import { nodeUuidsOf } from '../port-refs';
import * as args from '../schemas/args';
import { readQuery, deleteIdent } from '../schemas/list-query';
import { checkAllowedPatchFields, isPathUpdated, isTruthy, patchValues, readPatch } from '../schemas/patch';
import { PORTGROUP_PATCH_ALLOWED_FIELDS, PORTGROUP_SCHEMA, PORTGROUP_VALIDATOR } from '../schemas/portgroup';
import type { ApiContext } from '../state';
import { V } from '../versions';
import { portgroupView } from '../views/portgroup';
import { getPortgroupByIdent } from './portgroup-lookup';
import { requirePortgroups } from './portgroup-fields';

async function respond(ctx: ApiContext, pg: PortgroupRecord): Promise<void> {
  const nodes = await nodeUuidsOf(ctx, [pg]);
  ctx.body = portgroupView(baseUrl(ctx), pg, pg.node_id !== null ? nodes.get(pg.node_id) ?? null : null, null);
}

export async function createPortgroup(ctx: ApiContext): Promise<void> {
  readQuery(ctx, []);
  const body = ctx.state.body === undefined ? {} : ctx.state.body;
  const validated = PORTGROUP_VALIDATOR('portgroup', body) as Record<string, unknown> | null;
  requirePortgroups(ctx);
  const pg = args.requiredBody('portgroup', validated);
  const node = await getNodeForBodyUuid(ctx, pg.node_uuid as string);
  if (ctx.state.version < V.PORTGROUP_MODE_PROPERTIES && (isTruthy(pg.mode) || isTruthy(pg.properties))) {
    throw new NotAcceptable();
  }
  if (pg.name && !args.isValidLogicalName(pg.name)) {
    throw new InvalidParameterValue(`Cannot create portgroup with invalid name '${args.pyStr(pg.name)}'`);
  }
  if ('standalone_ports_supported' in pg && pg.standalone_ports_supported === null) {
    throw new ObjectFieldError("Field `standalone_ports_supported' cannot be None");
  }
  const values = {
    uuid: (pg.uuid as string | null) || randomUUID(),
    name: (pg.name as string | null | undefined) ?? null,
    address: (pg.address as string | null | undefined) ?? null,
    node_id: node.id,
    extra: 'extra' in pg ? pg.extra as PortgroupRecord['extra'] : {},
    internal_info: {},
    mode: (pg.mode as string | null | undefined) || ctx.state.deps.conf.str('DEFAULT', 'default_portgroup_mode'),
    properties: 'properties' in pg ? pg.properties as PortgroupRecord['properties'] : {},
    standalone_ports_supported: (pg.standalone_ports_supported as boolean | undefined) ?? true,
  };
  const created = await notifyApiChange(apiNotifyContext(ctx), 'portgroup', 'create', values,
    () => ctx.state.deps.conductor.createPortgroup(values), { node_uuid: node.uuid });
  ctx.status = 201;
  ctx.set('Location', `${baseUrl(ctx)}/v1/portgroups/${created.uuid}`);
  await respond(ctx, created);
}

function patchDocument(pg: PortgroupRecord, nodeUuid: string): Record<string, unknown> {
  return {
    created_at: pg.created_at, updated_at: pg.updated_at, id: pg.id, uuid: pg.uuid, name: pg.name, address: pg.address,
    extra: pg.extra, internal_info: pg.internal_info, standalone_ports_supported: pg.standalone_ports_supported,
    mode: pg.mode, properties: pg.properties, node_uuid: nodeUuid,
  };
}

function changedFields(pg: PortgroupRecord, doc: Record<string, unknown>, nodeId: number): Partial<PortgroupRecord> {
  const changes: Record<string, unknown> = {};
  for (const field of ['address', 'extra', 'mode', 'name', 'properties', 'standalone_ports_supported', 'uuid']) {
    const value: unknown = doc[field] ?? null;
    if (value === null && field === 'standalone_ports_supported') {
      throw new ObjectFieldError("Field `standalone_ports_supported' cannot be None");
    }
    if (JSON.stringify(value) !== JSON.stringify((pg as unknown as Record<string, unknown>)[field])) changes[field] = value;
  }
  if (nodeId !== pg.node_id) changes.node_id = nodeId;
  return changes as Partial<PortgroupRecord>;
}

export async function patchPortgroup(ctx: ApiContext): Promise<void> {
  const ident = args.uuidOrName('portgroup_ident', deleteIdent(ctx, 'portgroup_ident', ctx.params.ident))!;
  const patch = readPatch(ctx.state.body);
  requirePortgroups(ctx);
  const pg = await getPortgroupByIdent(ctx, ident);
  let node: NodeRecord = await nodesRepo.get(ctx.state.deps.db, pg.node_id ?? -1);
  if (ctx.state.version < V.PORTGROUP_MODE_PROPERTIES && (isPathUpdated(patch, '/mode') || isPathUpdated(patch, '/properties'))) {
    throw new NotAcceptable();
  }
  checkAllowedPatchFields(patch, PORTGROUP_PATCH_ALLOWED_FIELDS);
  for (const name of patchValues(patch, '/name')) {
    if (isTruthy(name) && !args.isValidLogicalName(name)) {
      throw new InvalidParameterValue(`Portgroup ${ident}: Cannot change name to invalid name '${args.pyStr(name)}'`);
    }
  }
  node = (await patchedLinkedNode(ctx, node, patch, 'node_uuid')) ?? node;
  const doc = applyJsonPatch(patchDocument(pg, node.uuid), patch);
  doc.node_uuid = node.uuid;
  if (!('mode' in doc)) throw new InvalidParameterValue("'mode' is a mandatory attribute and can not be removed");
  for (const key of Object.keys(doc)) if (!Object.hasOwn(PORTGROUP_SCHEMA.properties!, key)) delete doc[key];
  PORTGROUP_VALIDATOR('patch', doc);
  const changes = changedFields(pg, doc, node.id);
  if (node.provision_state === 'inspecting' && ctx.state.version >= V.INSPECT_WAIT) {
    throw new Conflict(`Cannot update portgroup "${pg.uuid}" on node "${node.uuid}" while it is in state "inspecting".`);
  }
  const updated = await notifyApiChange(apiNotifyContext(ctx), 'portgroup', 'update', { ...pg, ...changes },
    () => ctx.state.deps.conductor.updatePortgroup(pg.uuid, changes), { node_uuid: node.uuid });
  await respond(ctx, updated);
}

export async function deletePortgroup(ctx: ApiContext): Promise<void> {
  const ident = args.uuidOrName('portgroup_ident', deleteIdent(ctx, 'portgroup_ident', ctx.params.ident))!;
  requirePortgroups(ctx);
  const pg = await getPortgroupByIdent(ctx, ident);
  await notifyApiChange(apiNotifyContext(ctx), 'portgroup', 'delete', pg,
    () => ctx.state.deps.conductor.destroyPortgroup(pg.uuid), { node_uuid: await uuidOfRow(ctx, 'nodes', pg.node_id) });
  ctx.status = 204;
}
