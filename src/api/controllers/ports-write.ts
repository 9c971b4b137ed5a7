/**
 * Port create/update/delete (port.py post/patch/delete): validation and reference checks here, the
 * write itself through the conductor, as Ironic does.
 */
import { notifyApiChange } from '../../notifications/events';
import { apiNotifyContext, uuidOfRow } from '../notify-context';
import { randomUUID } from 'node:crypto';
import {
  Conflict, defineError, ObjectFieldError, Invalid, InvalidIdentity, InvalidParameterValue, NodeNotFound, NotAcceptable, PortgroupNotFound, inBody,
} from '../../common/errors';
import type { NodeRecord, PortRecord, PortgroupRecord } from '../../db/models';
import { isNotFound } from '../../db/errors';
import * as nodesRepo from '../../db/repositories/nodes';
import * as portgroupsRepo from '../../db/repositories/portgroups';
import * as portsRepo from '../../db/repositories/ports';
import { applyJsonPatch } from '../jsonpatch';
import { baseUrl } from '../links';
import { getNodeByIdent } from '../node-lookup';
import { portRefsOf } from '../port-refs';
import * as args from '../schemas/args';
import { readQuery, deleteIdent } from '../schemas/list-query';
import { checkAllowedPatchFields, isPathUpdated, readPatch, touchedFields } from '../schemas/patch';
import { PORT_PATCH_ALLOWED_FIELDS, PORT_SCHEMA, PORT_VALIDATOR } from '../schemas/port';
import { LOCAL_LINK_SMART_NIC_VALIDATOR } from '../schemas/local-link';
import type { ApiContext } from '../state';
import { V } from '../versions';
import { portView } from '../views/port';
import { checkAllowedPortFields } from './port-fields';
import { getPortByIdent } from './port-lookup';
import { patchedLinkedNode } from './node-link';

/** A 404 re-raised as 400 because the missing thing was named in the request body. */

/** Ironic raises this as exception.BadRequest, which has no HTTP code of its own (a 500): a 400 here. */
const DIFFERENT_NODE = 'Port can not be added to a portgroup belonging to a different node.';

async function portgroupByUuidInBody(ctx: ApiContext, uuid: string): Promise<PortgroupRecord> {
  try {
    return await portgroupsRepo.get(ctx.state.deps.db, uuid);
  } catch (err) {
    if (isNotFound(err, 'Portgroup')) throw inBody(new PortgroupNotFound({ portgroup: uuid }));
    throw err;
  }
}

/**
 * The node a new port belongs to: node_ident (UUID or name, 1.94) or node_uuid. A missing node is
 * reported as Ironic reports it, naming node_uuid (so "None" when the node was named by node_ident).
 */
async function nodeForNewPort(ctx: ApiContext, port: Record<string, unknown>): Promise<NodeRecord> {
  const ident = (port.node_ident || port.node_uuid) as string;
  try {
    return await getNodeByIdent(ctx, ident);
  } catch (err) {
    if (err instanceof NodeNotFound) throw inBody(new NodeNotFound({ node: port.node_uuid ?? null }));
    throw err;
  }
}

async function respondWithPort(ctx: ApiContext, port: PortRecord): Promise<void> {
  const refs = (await portRefsOf(ctx, [port]))(port);
  ctx.body = portView(baseUrl(ctx), port, refs, ctx.state.version, null);
}

export async function createPort(ctx: ApiContext): Promise<void> {
  readQuery(ctx, []);
  const body = ctx.state.body === undefined ? {} : ctx.state.body;
  const port = args.requiredBody('port', PORT_VALIDATOR('port', body) as Record<string, unknown> | null);
  if (port.node_ident && ctx.state.version < V.PORT_CREATE_WITH_NODE_NAME) throw new NotAcceptable();
  const node = await nodeForNewPort(ctx, port);
  checkAllowedPortFields(ctx, port);
  let portgroup: PortgroupRecord | null = null;
  if (port.portgroup_uuid) {
    portgroup = await portgroupByUuidInBody(ctx, port.portgroup_uuid as string);
    if (portgroup.node_id !== node.id) throw new InvalidParameterValue(DIFFERENT_NODE);
  }
  if (port.is_smartnic) {
    try {
      LOCAL_LINK_SMART_NIC_VALIDATOR('local_link_connection', port.local_link_connection);
    } catch (err) {
      if (err instanceof Invalid) throw new Invalid('Smart NIC port must have port_id and hostname in local_link_connection');
      throw err;
    }
  }
  if (port.physical_network === '') throw new Invalid('A non-empty value is required when setting physical_network');
  if (portgroup && port.pxe_enabled && !portgroup.standalone_ports_supported) {
    throw new Conflict(`Port group ${portgroup.uuid} doesn't support standalone ports. This port cannot be created as a ` +
      "member of that portgroup as the port's 'pxe_enabled' field was set to True.");
  }
  if ('pxe_enabled' in port && port.pxe_enabled === null) throw notNullable('pxe_enabled');
  const values = {
    uuid: (port.uuid as string | null) || randomUUID(),
    address: port.address as string,
    node_id: node.id,
    portgroup_id: portgroup ? portgroup.id : null,
    extra: 'extra' in port ? port.extra as PortRecord['extra'] : {},
    local_link_connection: 'local_link_connection' in port ? port.local_link_connection as PortRecord['local_link_connection'] : {},
    internal_info: {},
    pxe_enabled: (port.pxe_enabled as boolean | null | undefined) ?? true,
    physical_network: (port.physical_network as string | null | undefined) ?? null,
    is_smartnic: (port.is_smartnic as boolean | null | undefined) ?? false,
    name: (port.name as string | null | undefined) ?? null,
  };
  const created = await notifyApiChange(apiNotifyContext(ctx), 'port', 'create', values,
    () => ctx.state.deps.conductor.createPort(values), { node_uuid: node.uuid, portgroup_uuid: portgroup?.uuid ?? null });
  ctx.status = 201;
  ctx.set('Location', `${baseUrl(ctx)}/v1/ports/${created.uuid}`);
  await respondWithPort(ctx, created);
}

/** Ironic's Port object refuses None for its one non-nullable field (ObjectFieldError). */
function notNullable(field: string): Error {
  return new ObjectFieldError(`Field \`${field}' cannot be None`);
}

/** The patchable document: the port's fields with node_uuid/portgroup_uuid in place of the ids. */
function patchDocument(port: PortRecord, nodeUuid: string, portgroupUuid: string | null): Record<string, unknown> {
  const doc: Record<string, unknown> = {
    created_at: port.created_at, updated_at: port.updated_at, id: port.id, uuid: port.uuid, address: port.address,
    extra: port.extra, local_link_connection: port.local_link_connection, pxe_enabled: port.pxe_enabled,
    internal_info: port.internal_info, physical_network: port.physical_network, is_smartnic: port.is_smartnic,
    name: port.name,
  };
  doc.node_uuid = nodeUuid;
  doc.portgroup_uuid = portgroupUuid;
  return doc;
}

/** Values of the schema's fields that differ from the stored port (patch_update_changed_fields). */
function changedFields(port: PortRecord, doc: Record<string, unknown>, nodeId: number, portgroupId: number | null): Partial<PortRecord> {
  const changes: Record<string, unknown> = {};
  for (const field of ['address', 'extra', 'is_smartnic', 'local_link_connection', 'physical_network', 'pxe_enabled', 'uuid',
    'name']) {
    const value: unknown = doc[field] ?? null;
    if (value === null && field === 'pxe_enabled') throw notNullable(field);
    if (JSON.stringify(value) !== JSON.stringify((port as unknown as Record<string, unknown>)[field])) changes[field] = value;
  }
  if (nodeId !== port.node_id) changes.node_id = nodeId;
  if (portgroupId !== port.portgroup_id) changes.portgroup_id = portgroupId;
  return changes as Partial<PortRecord>;
}

export async function patchPort(ctx: ApiContext): Promise<void> {
  readQuery(ctx, []);
  args.uuidOrName('port_ident', ctx.params.port_uuid);
  const patch = readPatch(ctx.state.body);
  checkAllowedPatchFields(patch, PORT_PATCH_ALLOWED_FIELDS);
  checkAllowedPortFields(ctx, touchedFields(patch, ['pxe_enabled', 'local_link_connection', 'portgroup_uuid',
    'physical_network', 'is_smartnic', 'local_link_connection/network_type']));
  const db = ctx.state.deps.db;
  const port = await getPortByIdent(ctx, ctx.params.port_uuid);
  const current: NodeRecord = await nodesRepo.get(db, port.node_id ?? -1);
  let portgroup = port.portgroup_id !== null ? await portgroupsRepo.get(db, port.portgroup_id) : null;
  // A new node_uuid (UUID or name) must be a node the caller sees with the current node's owner.
  const node = await patchedLinkedNode(ctx, current, patch, 'node_uuid') ?? current;
  const doc = applyJsonPatch(patchDocument(port, current.uuid, portgroup ? portgroup.uuid : null), patch);
  doc.node_uuid = node.uuid;
  if (isPathUpdated(patch, '/portgroup_uuid')) {
    portgroup = doc.portgroup_uuid ? await portgroupByUuidInBody(ctx, String(doc.portgroup_uuid)) : null;
  }
  for (const key of Object.keys(doc)) if (!Object.hasOwn(PORT_SCHEMA.properties!, key)) delete doc[key];
  PORT_VALIDATOR('patch', doc);
  const changes = changedFields(port, doc, node.id, portgroup ? portgroup.id : null);
  if (node.provision_state === 'inspecting' && ctx.state.version >= V.INSPECT_WAIT) {
    throw new Conflict(`Cannot update port "${port.uuid}" on "${node.uuid}" while it is in state "inspecting".`);
  }
  const physnet = 'physical_network' in changes ? changes.physical_network : port.physical_network;
  if (isPathUpdated(patch, '/physical_network') && physnet === '') {
    throw new Invalid('A non-empty value is required when setting physical_network');
  }
  const updated = await notifyApiChange(apiNotifyContext(ctx), 'port', 'update', { ...port, ...changes },
    () => ctx.state.deps.conductor.updatePort(port.uuid, changes), { node_uuid: node.uuid, portgroup_uuid: portgroup?.uuid ?? null });
  await respondWithPort(ctx, updated);
}

export async function deletePort(ctx: ApiContext): Promise<void> {
  const uuid = args.uuid('port_uuid', deleteIdent(ctx, 'port_uuid', ctx.params.port_uuid))!;
  const port = await portsRepo.get(ctx.state.deps.db, uuid);
  const extra = { node_uuid: await uuidOfRow(ctx, 'nodes', port.node_id), portgroup_uuid: await uuidOfRow(ctx, 'portgroups', port.portgroup_id) };
  await notifyApiChange(apiNotifyContext(ctx), 'port', 'delete', port, () => ctx.state.deps.conductor.destroyPort(port.uuid), extra);
  ctx.status = 204;
}
