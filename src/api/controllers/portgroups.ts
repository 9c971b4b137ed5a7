/**
 * /v1/portgroups (portgroup.py PortgroupsController, 1.23+): list, detail, show, the ports
 * sub-collection (1.24+), and the writes in portgroups-write.ts. `listPortgroups` also serves
 * /v1/nodes/{id}/portgroups.
 */
import { listScope } from '../policy/scope';
import Router from '@koa/router';
import { HttpError, HTTPNotFound, InvalidParameterValue, PortgroupNotFound } from '../../common/errors';
import type { PortgroupRecord } from '../../db/models';
import * as portgroupsRepo from '../../db/repositories/portgroups';
import { collection } from '../collection';
import { baseUrl } from '../links';
import { getNodeByIdent } from '../node-lookup';
import { nodeUuidsOf } from '../port-refs';
import * as args from '../schemas/args';
import { nextArgs, PAGE_ARGS, readListArgs, readQuery, returnFields, validateLimit, validateSortDir, checkSortKey } from '../schemas/list-query';
import type { ApiContext, ApiState } from '../state';
import { V } from '../versions';
import { portgroupDict, portgroupView } from '../views/portgroup';
import { sanitize, checkInvalidFields } from '../views/resource-dict';
import { getPortgroupByIdent } from './portgroup-lookup';
import { createPortgroup, deletePortgroup, patchPortgroup } from './portgroups-write';
import { listPorts } from './ports';
import { checkAllowedPortgroupFields, requirePortgroups } from './portgroup-fields';

const DEFAULT_FIELDS = ['uuid', 'address', 'name'];
const INVALID_SORT_KEYS = ['extra', 'internal_info', 'properties'];

/** PortgroupsController.get_all's signature: its arguments in order, each with its validator. */
const LIST_ARGS = { node: args.uuidOrName, address: args.macAddress, ...PAGE_ARGS, fields: args.stringList, detail: args.boolean } as const;
/** detail()'s signature takes neither fields nor detail. */
const DETAIL_ARGS = Object.keys(LIST_ARGS).filter((name) => name !== 'fields' && name !== 'detail');

/** GET /v1/portgroups[/detail], or a node's portgroups when `parentNode` is given. */
export async function listPortgroups(ctx: ApiContext, parentNode: string | null = null, detailPath = false): Promise<void> {
  const a = readListArgs(ctx, LIST_ARGS, detailPath ? DETAIL_ARGS : undefined);
  requirePortgroups(ctx);
  if (parentNode) {
    // check_port_list_policy looks the parent up by UUID only and reports a miss as a portgroup miss.
    const row = await ctx.state.deps.db.knex('nodes').where({ uuid: parentNode }).first('id');
    if (!row) throw new PortgroupNotFound({ portgroup: null });
    a.node = parentNode;
  }
  let fields: string[] | null = null;
  if (!detailPath) checkAllowedPortgroupFields(ctx, a.fields);
  checkAllowedPortgroupFields(ctx, [a.sortKey]);
  if (!detailPath) fields = returnFields(ctx, a.fields, a.detail, a.rawDetail, DEFAULT_FIELDS);
  const limit = validateLimit(ctx, a.limit);
  const sortDir = validateSortDir(a.sortDir);
  const db = ctx.state.deps.db;
  if (a.marker) await portgroupsRepo.get(db, a.marker);
  checkSortKey(a.sortKey, INVALID_SORT_KEYS);
  const page = { limit, marker: a.marker ?? undefined, sortKey: a.sortKey, sortDir };
  let groups: PortgroupRecord[];
  if (a.node) {
    const node = await getNodeByIdent(ctx, a.node);
    groups = await portgroupsRepo.list(db, { node_id: node.id, ...listScope(ctx.state.auth) }, page);
  } else if (a.address) {
    const scope = listScope(ctx.state.auth);
    const pg = scope.project === undefined ? await portgroupsRepo.getByAddress(db, a.address)
      : (await portgroupsRepo.list(db, { address: a.address, ...scope }, { limit: 1 }))[0];
    groups = pg ? [pg] : [];
  } else {
    groups = await portgroupsRepo.list(db, listScope(ctx.state.auth), page);
  }
  const base = baseUrl(ctx);
  const nodes = await nodeUuidsOf(ctx, groups);
  const items = groups.map((pg) => portgroupDict(base, pg, pg.node_id !== null ? nodes.get(pg.node_id) ?? null : null));
  if (items.length > 0) checkInvalidFields(fields, Object.keys(items[0]));
  ctx.body = collection(ctx, 'portgroups', items as { uuid?: unknown }[], {
    limit, resource: detailPath ? 'portgroups/detail' : 'portgroups', nextArgs: nextArgs(a.sortKey, sortDir, fields, a.detail),
  });
  for (const item of items) sanitize(item, fields);
}

/** GET /v1/portgroups/{portgroup}[/{fields}]: pecan hands a further path segment to get_one as its `fields`. */
async function showPortgroup(ctx: ApiContext): Promise<void> {
  const pathFields = ctx.params.fields as string | undefined;
  const q = readQuery(ctx, pathFields === undefined ? ['fields'] : []);
  const ident = args.uuidOrName('portgroup_ident', ctx.params.ident)!;
  const fields = args.stringList('fields', pathFields ?? q.fields);
  requirePortgroups(ctx);
  const pg = await getPortgroupByIdent(ctx, ident);
  checkAllowedPortgroupFields(ctx, fields);
  const nodes = await nodeUuidsOf(ctx, [pg]);
  ctx.body = portgroupView(baseUrl(ctx), pg, pg.node_id !== null ? nodes.get(pg.node_id) ?? null : null, fields);
}

const routingNotFound = (): HttpError => new HttpError(404, 'Not Found', '');

/**
 * PortgroupsController._lookup, which pecan runs before any /v1/portgroups/{ident} handler: below 1.23
 * a bare 404, an ident that is neither UUID nor name a 400, both webob-shaped.
 */
async function lookupGuard(ctx: ApiContext, next: () => Promise<unknown>): Promise<void> {
  if (ctx.state.version < V.PORTGROUP) throw routingNotFound();
  const ident = ctx.params.ident;
  if (!args.isValidLogicalName(ident) && !args.isUuidLike(ident)) {
    throw new HttpError(400, 'Bad Request', `Expected UUID or name for portgroup: ${ident}`);
  }
  await next();
}

function portsOfPortgroup(detail: boolean) {
  return async (ctx: ApiContext): Promise<void> => {
    if (ctx.state.version < V.PORTGROUP_SUBRESOURCES) throw routingNotFound();
    await listPorts(ctx, { portgroup: ctx.params.ident }, detail);
  };
}

export function portgroupsRouter(): Router<ApiState> {
  const router = new Router<ApiState>();
  router.get('/v1/portgroups', (ctx) => listPortgroups(ctx));
  router.get('/v1/portgroups/detail', (ctx) => listPortgroups(ctx, null, true));
  router.get('/v1/portgroups/:ident', lookupGuard, showPortgroup);
  router.get('/v1/portgroups/:ident/detail', lookupGuard, () => { throw new HTTPNotFound(); });
  router.get('/v1/portgroups/:ident/ports', lookupGuard, portsOfPortgroup(false));
  router.get('/v1/portgroups/:ident/ports/detail', lookupGuard, portsOfPortgroup(true));
  router.get('/v1/portgroups/:ident/:fields', lookupGuard, showPortgroup);
  router.post('/v1/portgroups', createPortgroup);
  router.patch('/v1/portgroups/:ident', lookupGuard, patchPortgroup);
  router.delete('/v1/portgroups', deletePortgroup);
  router.delete('/v1/portgroups/:ident', lookupGuard, deletePortgroup);
  return router;
}
