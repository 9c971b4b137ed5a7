/**
 * /v1/allocations (allocation.py AllocationsController, 1.52+; PATCH 1.57; backfill 1.58; owner 1.60).
 * Reads and PATCH go to the database, as in Ironic; create/delete go to the conductor side.
 */
import { notifyApiChange } from '../../notifications/events';
import { apiNotifyContext } from '../notify-context';
import { listScope, mayGetNode } from '../policy/scope';
import Router from '@koa/router';
import { randomUUID } from 'node:crypto';
import {
  defineError, HttpError, Invalid, InvalidParameterValue, InvalidUuidOrName, NodeNotFound, NotAcceptable, inBody } from '../../common/errors';
import type { AllocationRecord } from '../../db/models';
import * as allocationsRepo from '../../db/repositories/allocations';
import { collection } from '../collection';
import { applyJsonPatch } from '../jsonpatch';
import { baseUrl } from '../links';
import { getNodeByIdent } from '../node-lookup';
import { nodeUuidsOf } from '../port-refs';
import * as args from '../schemas/args';
import { ALLOCATION_PATCH_ALLOWED_FIELDS, ALLOCATION_SCHEMA, ALLOCATION_VALIDATOR } from '../schemas/allocation';
import { nextArgs, readQuery, validateLimit, validateSortDir, PAGE_ARGS, readListArgs, checkSortKey, deleteIdent } from '../schemas/list-query';
import { checkAllowedPatchFields, isTruthy, patchValues, readPatch } from '../schemas/patch';
import { checkInvalidFields } from '../views/resource-dict';
import type { ApiContext, ApiState } from '../state';
import { V } from '../versions';
import { allocationDict, allocationView, sanitizeAllocation } from '../views/allocation';

const INVALID_SORT_KEYS = ['extra', 'candidate_nodes', 'traits'];

/** Raised inside the controller, so Ironic renders it as a fault (not webob-shaped) with 405. */
const UpdateNotAllowed = defineError('HTTPMethodNotAllowed', 405, 'Method Not Allowed');


/** AllocationsController._route: below 1.52 GET is a 404 and any other verb a 405, both webob-shaped. */
function requireAllocations(ctx: ApiContext): void {
  if (ctx.state.version >= V.ALLOCATIONS) return;
  const msg = 'The API version does not allow allocations';
  throw ctx.method === 'GET' ? new HttpError(404, 'Not Found', msg) : new HttpError(405, 'Method Not Allowed', msg);
}

function checkOwnerField(ctx: ApiContext, fields: Iterable<string> | null): void {
  if (fields !== null && [...fields].includes('owner') && ctx.state.version < V.ALLOCATION_OWNER) throw new NotAcceptable();
}

/** get_rpc_allocation: by UUID or logical name. */
async function getAllocationByIdent(ctx: ApiContext, ident: string): Promise<AllocationRecord> {
  if (!args.isUuidLike(ident) && !args.isValidLogicalName(ident)) throw new InvalidUuidOrName({ name: ident });
  return allocationsRepo.get(ctx.state.deps.db, ident);
}

async function nodeUuidOf(ctx: ApiContext, a: AllocationRecord): Promise<string | null> {
  return a.node_id !== null ? (await nodeUuidsOf(ctx, [a])).get(a.node_id) ?? null : null;
}

async function nodeForFilter(ctx: ApiContext, ident: string): Promise<number> {
  try {
    return (await getNodeByIdent(ctx, ident)).id;
  } catch (err) {
    if (err instanceof NodeNotFound) throw inBody(new NodeNotFound(err.message));
    throw err;
  }
}

/** AllocationsController.get_all's signature: its arguments in order, each with its validator. */
const LIST_ARGS = {
  node: args.uuidOrName, resource_class: args.string, state: args.string, ...PAGE_ARGS, fields: args.stringList, owner: args.string,
} as const;

async function listAllocations(ctx: ApiContext): Promise<void> {
  requireAllocations(ctx);
  const { node, resourceClass, state, marker, limit: rawLimit, sortKey, sortDir: rawDir, fields, owner } = readListArgs(ctx, LIST_ARGS);
  checkOwnerField(ctx, fields);
  if (owner !== null && ctx.state.version < V.ALLOCATION_OWNER) throw new NotAcceptable();
  const limit = validateLimit(ctx, rawLimit);
  const sortDir = validateSortDir(rawDir);
  checkSortKey(sortKey, INVALID_SORT_KEYS);
  const db = ctx.state.deps.db;
  if (marker) await allocationsRepo.get(db, marker);
  const filters: allocationsRepo.AllocationFilters = {};
  if (node) filters.node_id = await nodeForFilter(ctx, node);
  if (resourceClass !== null) filters.resource_class = resourceClass;
  if (state !== null) filters.state = state;
  if (owner !== null) filters.owner = owner;
  // A caller limited by policy to its project lists the allocations that project owns.
  const scoped = listScope(ctx.state.auth).project;
  if (scoped) filters.owner = scoped;
  const rows = await allocationsRepo.list(db, filters, { limit, marker: marker ?? undefined, sortKey, sortDir });
  const nodes = await nodeUuidsOf(ctx, rows);
  const base = baseUrl(ctx);
  const items = rows.map((a) => allocationDict(base, a, a.node_id !== null ? nodes.get(a.node_id) ?? null : null));
  if (items.length > 0) checkInvalidFields(fields, Object.keys(items[0]));
  ctx.body = collection(ctx, 'allocations', items as { uuid?: unknown }[], {
    limit, resource: 'allocations', nextArgs: nextArgs(sortKey, sortDir, fields, null),
  });
  for (const item of items) sanitizeAllocation(item, ctx.state.version, fields);
}

async function showAllocation(ctx: ApiContext): Promise<void> {
  requireAllocations(ctx);
  const q = readQuery(ctx, ['fields']);
  const ident = args.uuidOrName('allocation_ident', ctx.params.ident)!;
  const fields = args.stringList('fields', q.fields);
  const a = await getAllocationByIdent(ctx, ident);
  checkOwnerField(ctx, fields);
  ctx.body = allocationView(baseUrl(ctx), a, await nodeUuidOf(ctx, a), ctx.state.version, fields);
}

/**
 * check_node_list: every candidate (uuid or name) must name an existing node, owned or leased by
 * the caller's project when policy limits it to that; returns their uuids.
 */
async function resolveCandidates(ctx: ApiContext, idents: string[]): Promise<string[]> {
  const project = ctx.state.auth?.candidateProject;
  const unique = [...new Set(idents)];
  const uuidLike = (s: string): boolean => args.isUuidLike(s);
  const uuids = unique.filter(uuidLike);
  const names = unique.filter((i) => !uuidLike(i) && args.isValidLogicalName(i));
  let missing: string[] = unique.filter((i) => !uuids.includes(i) && !names.includes(i));
  if (missing.length) throw inBody(new NodeNotFound(`Nodes cannot be found: ${missing.join(', ')}`));
  const rows = await ctx.state.deps.db.knex('nodes').select('uuid', 'name')
    .where((qb) => { qb.whereIn('uuid', uuids as string[]).orWhereIn('name', names as string[]); })
    .modify((qb) => { if (project) qb.where((p) => { p.where('owner', project).orWhere('lessee', project); }); }) as
    Array<{ uuid: string; name: string | null }>;
  const mapping = new Map<string, string>();
  for (const row of rows) {
    if (unique.includes(row.uuid)) mapping.set(row.uuid, row.uuid);
    if (row.name && unique.includes(row.name)) mapping.set(row.name, row.uuid);
  }
  missing = unique.filter((i) => !mapping.has(i));
  if (missing.length) throw inBody(new NodeNotFound(`Nodes cannot be found: ${missing.join(', ')}`));
  return idents.map((i) => mapping.get(i)!);
}

/** The requested owner, unless the policy step gave a project-scoped caller's allocation its project. */
function allocationOwner(ctx: ApiContext, body: Record<string, unknown>): string | null {
  const assigned = ctx.state.auth?.allocationOwner;
  return assigned !== undefined ? assigned : (body.owner as string | null | undefined) ?? null;
}

async function createAllocation(ctx: ApiContext): Promise<void> {
  requireAllocations(ctx);
  readQuery(ctx, []);
  const body = args.requiredBody('allocation', ALLOCATION_VALIDATOR('allocation', ctx.state.body === undefined ? {} : ctx.state.body) as Record<string, unknown> | null);
  checkOwnerField(ctx, Object.keys(body));
  if (body.name && !args.isValidLogicalName(body.name)) {
    throw new Invalid(`Cannot create allocation with invalid name '${args.pyStr(body.name)}'`);
  }
  let node = null;
  if (body.node) {
    if (ctx.state.version < V.ALLOCATION_BACKFILL) throw new Invalid('Cannot set node when creating an allocation in this API version');
    try {
      node = await getNodeByIdent(ctx, body.node as string);
    } catch (err) {
      if (err instanceof NodeNotFound) throw inBody(new NodeNotFound(err.message));
      throw err;
    }
    // A node the caller may not see is one that does not exist.
    if (!mayGetNode(ctx.state.auth, node)) throw inBody(new NodeNotFound({ node: body.node }));
  }
  let resourceClass = body.resource_class as string | null | undefined;
  if (!resourceClass) {
    if (!node) throw new Invalid('The resource_class field is mandatory when not backfilling');
    resourceClass = node.resource_class;
  }
  let candidates = (body.candidate_nodes as string[] | null | undefined) ?? null;
  if (candidates && candidates.length) candidates = await resolveCandidates(ctx, candidates);
  const uuid = (body.uuid as string | null) || (node && node.instance_uuid) || randomUUID();
  const values = {
    uuid, name: (body.name as string | null | undefined) ?? null, resource_class: resourceClass ?? null,
    traits: (body.traits as string[] | null | undefined) ?? [], candidate_nodes: candidates ?? [],
    extra: 'extra' in body ? body.extra as AllocationRecord['extra'] : {}, owner: allocationOwner(ctx, body),
  };
  let createdNodeUuid: string | null = null;
  const created = await notifyApiChange(apiNotifyContext(ctx), 'allocation', 'create', { ...values, state: 'allocating' }, async () => {
    const stored = await ctx.state.deps.conductor.createAllocation(values, node ? node.id : null);
    createdNodeUuid = await nodeUuidOf(ctx, stored);
    return stored;
  }, { node_uuid: node?.uuid ?? null }, () => ({ node_uuid: createdNodeUuid }));
  ctx.status = 201;
  ctx.set('Location', `${baseUrl(ctx)}/v1/allocations/${created.uuid}`);
  ctx.body = allocationView(baseUrl(ctx), created, createdNodeUuid, ctx.state.version, null);
}

function patchDocument(a: AllocationRecord): Record<string, unknown> {
  return {
    created_at: a.created_at, updated_at: a.updated_at, id: a.id, uuid: a.uuid, name: a.name, node_id: a.node_id,
    state: a.state, last_error: a.last_error, resource_class: a.resource_class, traits: a.traits,
    candidate_nodes: a.candidate_nodes, extra: a.extra, conductor_affinity: a.conductor_affinity, owner: a.owner,
  };
}

async function patchAllocation(ctx: ApiContext): Promise<void> {
  requireAllocations(ctx);
  readQuery(ctx, []);
  const ident = args.string('allocation_ident', ctx.params.ident)!;
  const patch = readPatch(ctx.state.body);
  if (ctx.state.version < V.ALLOCATION_UPDATE) {
    throw new UpdateNotAllowed('The API version does not allow updating allocations');
  }
  const a = await getAllocationByIdent(ctx, ident);
  checkAllowedPatchFields(patch, ALLOCATION_PATCH_ALLOWED_FIELDS);
  for (const name of patchValues(patch, '/name')) {
    if (isTruthy(name) && !args.isValidLogicalName(name)) {
      throw new Invalid(`Cannot update allocation with invalid name '${args.pyStr(name)}'`);
    }
  }
  const doc = applyJsonPatch(patchDocument(a), patch);
  for (const key of Object.keys(doc)) if (!Object.hasOwn(ALLOCATION_SCHEMA.properties!, key)) delete doc[key];
  ALLOCATION_VALIDATOR('patch', doc);
  const changes: Record<string, unknown> = {};
  for (const field of ['candidate_nodes', 'extra', 'name', 'owner', 'resource_class', 'traits', 'uuid']) {
    const value = doc[field] ?? null;
    if (JSON.stringify(value) !== JSON.stringify((a as unknown as Record<string, unknown>)[field])) changes[field] = value;
  }
  if ('uuid' in changes) throw new InvalidParameterValue('Cannot overwrite UUID for an existing Allocation.');
  const nodeUuid = await nodeUuidOf(ctx, a);
  const updated = await notifyApiChange(apiNotifyContext(ctx), 'allocation', 'update', { ...a, ...changes }, async () => (Object.keys(changes).length
    ? allocationsRepo.update(ctx.state.deps.db, a.id, changes as Partial<AllocationRecord>, false) : a), { node_uuid: nodeUuid });
  ctx.body = allocationView(baseUrl(ctx), updated, await nodeUuidOf(ctx, updated), ctx.state.version, null);
}

async function deleteAllocation(ctx: ApiContext): Promise<void> {
  requireAllocations(ctx);
  const ident = args.uuidOrName('allocation_ident', deleteIdent(ctx, 'allocation_ident', ctx.params.ident))!;
  const a = await getAllocationByIdent(ctx, ident);
  await notifyApiChange(apiNotifyContext(ctx), 'allocation', 'delete', a,
    () => ctx.state.deps.conductor.destroyAllocation(a.uuid), { node_uuid: await nodeUuidOf(ctx, a) });
  ctx.status = 204;
}

export function allocationsRouter(): Router<ApiState> {
  const router = new Router<ApiState>();
  router.get('/v1/allocations', listAllocations);
  router.get('/v1/allocations/:ident', showAllocation);
  router.post('/v1/allocations', createAllocation);
  router.patch('/v1/allocations/:ident', patchAllocation);
  router.delete('/v1/allocations', deleteAllocation);
  router.delete('/v1/allocations/:ident', deleteAllocation);
  return router;
}
