/**
 * /v1/ports (port.py PortsController): list, detail, show, and the writes in ports-write.ts.
 * `listPorts` also serves /v1/portgroups/{id}/ports and /v1/nodes/{id}/ports.
 */
import Router from '@koa/router';
import { HTTPNotFound, InvalidParameterValue, NotAcceptable, OperationNotPermitted, PortgroupNotFound } from '../../common/errors';
import type { PortRecord } from '../../db/models';
import * as portsRepo from '../../db/repositories/ports';
import type { PortFilters } from '../../db/repositories/ports';
import { listScope } from '../policy/scope';
import { collection } from '../collection';
import { baseUrl } from '../links';
import { getNodeByIdent } from '../node-lookup';
import { portRefsOf } from '../port-refs';
import * as args from '../schemas/args';
import {
  checkAllowFields, checkSortKey, ListArgsOf, nextArgs, PAGE_ARGS, readListArgs, readQuery, returnFields, validateLimit,
  validateSortDir,
} from '../schemas/list-query';
import { checkInvalidFields } from '../views/resource-dict';
import type { ApiContext, ApiState } from '../state';
import { V } from '../versions';
import { portDict, portView, sanitizePort } from '../views/port';
import { getPortgroupByIdent } from './portgroup-lookup';
import { getPortByIdent } from './port-lookup';
import { createPort, deletePort, patchPort } from './ports-write';
import { checkAllowedPortFields } from './port-fields';

const DEFAULT_FIELDS = ['uuid', 'address'];
const INVALID_SORT_KEYS = ['extra', 'internal_info', 'local_link_connection'];
interface PortListParent {
  node?: string;
  portgroup?: string;
}

/** PortsController.get_all's signature: its arguments in order, each with its validator. */
const LIST_ARGS = {
  node: args.uuidOrName, node_uuid: args.uuid, address: args.macAddress, ...PAGE_ARGS, fields: args.stringList,
  portgroup: args.uuidOrName, detail: args.boolean, shard: args.stringList,
} as const;
/** detail()'s signature takes neither fields nor detail. */
const DETAIL_ARGS = Object.keys(LIST_ARGS).filter((name) => name !== 'fields' && name !== 'detail');

type ListArgs = ListArgsOf<typeof LIST_ARGS>;

function checkCommonListArgs(ctx: ApiContext, a: ListArgs): void {
  checkAllowedPortFields(ctx, [a.sortKey]);
  if (a.portgroup && ctx.state.version < V.PORTGROUP_SUBRESOURCES) throw new NotAcceptable();
  if (a.shard !== null && ctx.state.version < V.SHARDS) {
    throw new NotAcceptable(`Request not acceptable. The minimal required API version should be 1.${V.SHARDS}`);
  }
}

function checkNodeArg(ctx: ApiContext, a: ListArgs): void {
  if (!a.nodeUuid && a.node && ctx.state.version < V.NODE_NAME && !args.isUuidLike(a.node)) throw new NotAcceptable();
}

/**
 * check_port_list_policy's lookups: a parent portgroup is found by UUID only, and a parent node by
 * UUID only too, its absence reported (as Ironic does) as PortgroupNotFound of the parent portgroup.
 */
async function checkParentExists(ctx: ApiContext, parent: PortListParent): Promise<void> {
  const db = ctx.state.deps.db;
  if (parent.portgroup) {
    const pg = await db.knex('portgroups').where({ uuid: parent.portgroup }).first('id');
    if (!pg) throw new PortgroupNotFound({ portgroup: parent.portgroup });
  } else if (parent.node) {
    const node = await db.knex('nodes').where({ uuid: parent.node }).first('id');
    if (!node) throw new PortgroupNotFound({ portgroup: null });
  }
}

/** GET /v1/ports, or a parent's ports list; `detailPath` for /detail. */
export async function listPorts(ctx: ApiContext, parent: PortListParent = {}, detailPath = false): Promise<void> {
  const a = readListArgs(ctx, LIST_ARGS, detailPath ? DETAIL_ARGS : undefined);
  await checkParentExists(ctx, parent);
  if (parent.node) a.node = parent.node;
  if (parent.portgroup) a.portgroup = parent.portgroup;
  let fields: string[] | null = null;
  if (!detailPath) {
    checkAllowFields(ctx, a.fields);
    checkAllowedPortFields(ctx, a.fields);
  }
  checkCommonListArgs(ctx, a);
  if (!detailPath) fields = returnFields(ctx, a.fields, a.detail, a.rawDetail, DEFAULT_FIELDS);
  checkNodeArg(ctx, a);
  // Ironic links the next page under /v1/ports whatever the parent resource.
  await portsCollection(ctx, a, fields, detailPath ? 'ports/detail' : 'ports');
}

async function portsCollection(ctx: ApiContext, a: ListArgs, fields: string[] | null, resource: string): Promise<void> {
  const limit = validateLimit(ctx, a.limit);
  const sortDir = validateSortDir(a.sortDir);
  const db = ctx.state.deps.db;
  if (a.marker) await portsRepo.get(db, a.marker);
  checkSortKey(a.sortKey, INVALID_SORT_KEYS);
  const nodeIdent = a.nodeUuid ?? a.node;
  if ([nodeIdent, a.portgroup, a.shard && a.shard.length ? a.shard : null].filter((x) => x).length > 1) {
    throw new OperationNotPermitted();
  }
  const page = { limit, marker: a.marker ?? undefined, sortKey: a.sortKey, sortDir };
  let ports: PortRecord[];
  if (a.portgroup) {
    const pg = await getPortgroupByIdent(ctx, a.portgroup);
    ports = await portsRepo.list(db, { portgroup_id: pg.id, ...listScope(ctx.state.auth) }, page);
  } else if (nodeIdent) {
    const node = await getNodeByIdent(ctx, nodeIdent);
    ports = await portsRepo.list(db, { node_id: node.id, ...listScope(ctx.state.auth) }, page);
  } else if (a.address) {
    const port = await portsRepo.getByAddress(db, a.address, listScope(ctx.state.auth));
    ports = port ? [port] : [];
  } else {
    const filters: PortFilters = { ...(a.shard && a.shard.length ? { shard_in: a.shard } : {}), ...listScope(ctx.state.auth) };
    ports = await portsRepo.list(db, filters, page);
  }
  ctx.body = await portsBody(ctx, ports, limit, fields, resource, nextArgs(a.sortKey, sortDir, fields, a.detail));
}

async function portsBody(ctx: ApiContext, ports: PortRecord[], limit: number, fields: string[] | null, resource: string,
  next: [string, string][]): Promise<Record<string, unknown>> {
  const base = baseUrl(ctx);
  const refsOf = await portRefsOf(ctx, ports);
  const items: Record<string, unknown>[] = [];
  for (const port of ports) {
    const refs = refsOf(port);
    // A port whose node vanished after the query was deleted with it: Ironic skips it.
    if (refs.nodeUuid === null) continue;
    items.push(portDict(base, port, refs));
  }
  if (items.length > 0) checkInvalidFields(fields, Object.keys(items[0]));
  const body = collection(ctx, 'ports', items as { uuid?: unknown }[], { limit, resource, nextArgs: next });
  for (const item of items) sanitizePort(item, ctx.state.version, fields);
  return body;
}

/** GET /v1/ports/{port}[/{fields}]: pecan hands a further path segment to get_one as its `fields`. */
async function showPort(ctx: ApiContext): Promise<void> {
  const pathFields = ctx.params.fields as string | undefined;
  const q = readQuery(ctx, pathFields === undefined ? ['fields'] : []);
  const fields = args.stringList('fields', pathFields ?? q.fields);
  const port = await getPortByIdent(ctx, ctx.params.port_uuid);
  checkAllowFields(ctx, fields);
  checkAllowedPortFields(ctx, fields);
  const refs = (await portRefsOf(ctx, [port]))(port);
  ctx.body = portView(baseUrl(ctx), port, refs, ctx.state.version, fields);
}

export function portsRouter(): Router<ApiState> {
  const router = new Router<ApiState>();
  router.get('/v1/ports', (ctx) => listPorts(ctx));
  router.get('/v1/ports/detail', (ctx) => listPorts(ctx, {}, true));
  router.get('/v1/ports/:port_uuid', showPort);
  router.get('/v1/ports/:port_uuid/detail', () => { throw new HTTPNotFound(); });
  router.get('/v1/ports/:port_uuid/:fields', showPort);
  router.post('/v1/ports', createPort);
  router.patch('/v1/ports/:port_uuid', patchPort);
  router.delete('/v1/ports', deletePort);
  router.delete('/v1/ports/:port_uuid', deletePort);
  return router;
}
