/**
 * Volume connectors and targets (volume_connector.py / volume_target.py): the two controllers differ
 * only in schema, fields and messages, so one set of handlers serves both from a `VolumeKind`.
 * Creates go straight to the database; updates/deletes go to the conductor, which takes the node
 * lock and needs the node powered off, as Ironic sends them.
 */
import { notifyApiChange } from '../../notifications/events';
import { apiNotifyContext } from '../notify-context';
import { randomUUID } from 'node:crypto';
import {
  InvalidParameterValue, InvalidUUID, NodeNotFound, OperationNotPermitted, InvalidInput } from '../../common/errors';
import type { Database } from '../../db/connection';
import type { NodeRecord } from '../../db/models';
import * as nodesRepo from '../../db/repositories/nodes';
import type { PageOptions } from '../../db/repositories/paginate';
import type { ConductorApi } from '../../rpc/conductor-api';
import { collection } from '../collection';
import { applyJsonPatch } from '../jsonpatch';
import { baseUrl } from '../links';
import { getNodeByIdent } from '../node-lookup';
import { patchedLinkedNode } from './node-link';
import { nodeUuidsOf } from '../port-refs';
import * as args from '../schemas/args';
import type { Schema } from '../schemas/jsonschema';
import { nextArgs, readQuery, validateLimit, validateSortDir, PAGE_ARGS, readListArgs, checkSortKey, deleteIdent } from '../schemas/list-query';
import { checkAllowedPatchFields, patchValues, readPatch } from '../schemas/patch';
import type { ApiContext } from '../state';
import { checkInvalidFields } from '../views/resource-dict';
import { listScope } from '../policy/scope';

interface VolumeRecordBase {
  id: number;
  uuid: string;
  node_id: number | null;
  created_at: Date | null;
  updated_at: Date | null;
}

export interface VolumeKind<R extends VolumeRecordBase> {
  /** "connector" / "target", as in messages and argument names. */
  noun: string;
  collection: string;
  defaultFields: string[];
  invalidSortKeys: string[];
  schema: Schema;
  validate: (name: string, value: unknown) => unknown;
  patchAllowed: readonly string[];
  /** Object fields a PATCH may change besides node_id (patch_update_changed_fields over the schema). */
  updatable: string[];
  repo: {
    get(db: Database, ident: string | number): Promise<R>;
    list(db: Database, filters: { node_id?: number; project?: string }, page: PageOptions): Promise<R[]>;
    create(db: Database, values: Partial<R>): Promise<R>;
  };
  /** The conductor calls that change or delete a record under its node's lock. */
  rpc: {
    update(conductor: ConductorApi, uuid: string, changes: Partial<R>): Promise<R>;
    destroy(conductor: ConductorApi, uuid: string): Promise<void>;
  };
  dict(base: string, record: R, nodeUuid: string | null): Record<string, unknown>;
  sanitize(dict: Record<string, unknown>, fields: readonly string[] | null): Record<string, unknown>;
  /** Body fields copied onto a new record (besides uuid and node_id). */
  createFields: string[];
  /** The object Ironic's notifications name it by. */
  notifyAs: 'volumeconnector' | 'volumetarget';
}



async function nodeUuidOf(ctx: ApiContext, r: VolumeRecordBase): Promise<string | null> {
  return r.node_id !== null ? (await nodeUuidsOf(ctx, [r])).get(r.node_id) ?? null : null;
}

/** check_volume_list_policy: a parent node is looked up by UUID only. */
async function checkParentNode(ctx: ApiContext, parentNode: string | null): Promise<void> {
  if (!parentNode) return;
  const row = await ctx.state.deps.db.knex('nodes').where({ uuid: parentNode }).first('id');
  if (!row) throw new NodeNotFound({ node: parentNode });
}

/** The volume connectors' and targets' get_all signature. */
const LIST_ARGS = { node: args.uuidOrName, ...PAGE_ARGS, fields: args.stringList, detail: args.boolean } as const;

export async function listVolume<R extends VolumeRecordBase>(kind: VolumeKind<R>, ctx: ApiContext,
  parentNode: string | null = null): Promise<void> {
  let { node, marker, limit: rawLimit, sortKey, sortDir: rawDir, fields, detail } = readListArgs(ctx, LIST_ARGS);
  await checkParentNode(ctx, parentNode);
  if (fields === null && !detail) fields = [...kind.defaultFields];
  if (fields && fields.length && detail) throw new InvalidParameterValue("Can't fetch a subset of fields with 'detail' set");
  const limit = validateLimit(ctx, rawLimit);
  const sortDir = validateSortDir(rawDir);
  const db = ctx.state.deps.db;
  if (marker) await kind.repo.get(db, marker);
  checkSortKey(sortKey, kind.invalidSortKeys);
  if (parentNode) node = parentNode;
  // A caller limited by policy to its project lists the objects of nodes it owns or leases.
  const filters = { ...(node ? { node_id: (await getNodeByIdent(ctx, node)).id } : {}), ...listScope(ctx.state.auth) };
  const rows = await kind.repo.list(db, filters, { limit, marker: marker ?? undefined, sortKey, sortDir });
  const nodes = await nodeUuidsOf(ctx, rows);
  const base = baseUrl(ctx);
  const items = rows.map((r) => kind.dict(base, r, r.node_id !== null ? nodes.get(r.node_id) ?? null : null));
  if (fields !== null && items.length > 0) checkInvalidFields(fields, Object.keys(items[0]));
  ctx.body = collection(ctx, kind.collection, items as { uuid?: unknown }[], {
    limit, resource: `volume/${kind.collection}`, nextArgs: nextArgs(sortKey, sortDir, fields, detail ? true : null),
  });
  for (const item of items) kind.sanitize(item, fields);
}

export async function showVolume<R extends VolumeRecordBase>(kind: VolumeKind<R>, ctx: ApiContext,
  parentNode: string | null = null): Promise<void> {
  const q = readQuery(ctx, ['fields']);
  const uuid = args.uuid(`${kind.noun}_uuid`, ctx.params.uuid)!;
  const fields = args.stringList('fields', q.fields);
  const record = await kind.repo.get(ctx.state.deps.db, uuid);
  if (parentNode) throw new OperationNotPermitted();
  const dict = kind.dict(baseUrl(ctx), record, await nodeUuidOf(ctx, record));
  checkInvalidFields(fields, Object.keys(dict));
  ctx.body = kind.sanitize(dict, fields);
}

export async function createVolume<R extends VolumeRecordBase>(kind: VolumeKind<R>, ctx: ApiContext,
  parentNode: string | null = null): Promise<void> {
  readQuery(ctx, []);
  const body = args.requiredBody(kind.noun, kind.validate(kind.noun, ctx.state.body === undefined ? {} : ctx.state.body) as Record<string, unknown> | null);
  const nodeUuid = body.node_uuid as string;
  const node = await ctx.state.deps.db.knex('nodes').where({ uuid: nodeUuid }).first('id') as { id: number } | undefined;
  if (!node) throw new InvalidInput('node_uuid', nodeUuid);
  if (parentNode) throw new OperationNotPermitted();
  const values: Record<string, unknown> = { uuid: (body.uuid as string | null) || randomUUID(), node_id: node.id };
  for (const field of kind.createFields) if (Object.hasOwn(body, field)) values[field] = body[field];
  const notify = apiNotifyContext(ctx);
  const created = await notifyApiChange(notify, kind.notifyAs, 'create', values,
    () => kind.repo.create(ctx.state.deps.db, values as Partial<R>), { node_uuid: nodeUuid });
  ctx.status = 201;
  ctx.set('Location', `${baseUrl(ctx)}/v1/volume/${kind.collection}/${created.uuid}`);
  ctx.body = kind.sanitize(kind.dict(baseUrl(ctx), created, nodeUuid), null);
}

export async function patchVolume<R extends VolumeRecordBase>(kind: VolumeKind<R>, ctx: ApiContext,
  parentNode: string | null = null): Promise<void> {
  const name = `${kind.noun}_uuid`;
  const uuid = args.uuid(name, deleteIdent(ctx, name, ctx.params.uuid))!;
  const patch = readPatch(ctx.state.body);
  const db = ctx.state.deps.db;
  const record = await kind.repo.get(db, uuid);
  let node: NodeRecord = await nodesRepo.get(db, record.node_id ?? -1);
  if (parentNode) throw new OperationNotPermitted();
  checkAllowedPatchFields(patch, kind.patchAllowed);
  for (const value of patchValues(patch, '/node_uuid')) {
    if (!args.isUuidLike(value)) {
      throw new InvalidUUID(`Expected a UUID for node_uuid, but received ${args.pyStr(value)}.`);
    }
  }
  const { node_id: _nodeId, ...rest } = record as unknown as Record<string, unknown>;
  node = (await patchedLinkedNode(ctx, node, patch, 'node_uuid')) ?? node;
  // As Ironic: node_uuid starts out null (so a remove applies) and ends as the authorized node.
  const doc = applyJsonPatch<Record<string, unknown>>({ ...rest, node_uuid: null }, patch);
  doc.node_uuid = node.uuid;
  for (const key of Object.keys(doc)) if (!Object.hasOwn(kind.schema.properties!, key)) delete doc[key];
  kind.validate('patch', doc);
  const changes: Record<string, unknown> = {};
  for (const field of kind.updatable) {
    const value = doc[field] ?? null;
    if (JSON.stringify(value) !== JSON.stringify((record as unknown as Record<string, unknown>)[field])) changes[field] = value;
  }
  if (node.id !== record.node_id) changes.node_id = node.id;
  const updated = await notifyApiChange(apiNotifyContext(ctx), kind.notifyAs, 'update', { ...record, ...changes },
    () => kind.rpc.update(ctx.state.deps.conductor, record.uuid, changes as Partial<R>), { node_uuid: node.uuid });
  ctx.body = kind.sanitize(kind.dict(baseUrl(ctx), updated, node.uuid), null);
}

export async function deleteVolume<R extends VolumeRecordBase>(kind: VolumeKind<R>, ctx: ApiContext,
  parentNode: string | null = null): Promise<void> {
  const name = `${kind.noun}_uuid`;
  const uuid = args.uuid(name, deleteIdent(ctx, name, ctx.params.uuid))!;
  const record = await kind.repo.get(ctx.state.deps.db, uuid);
  if (parentNode) throw new OperationNotPermitted();
  await notifyApiChange(apiNotifyContext(ctx), kind.notifyAs, 'delete', record,
    () => kind.rpc.destroy(ctx.state.deps.conductor, record.uuid), { node_uuid: await nodeUuidOf(ctx, record) });
  ctx.status = 204;
}
