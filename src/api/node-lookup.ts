/**
 * Finding the node a request names, with Ironic's rules (api/controllers/v1/utils.py get_rpc_node):
 * a UUID-like ident is a uuid; from 1.5 a valid logical name is a name and an invalid one is a 400;
 * below 1.5 anything else is simply "not found", as Juno answered.
 */
import { HttpError, InvalidUuidOrName, NodeNotFound, inBody } from '../common/errors';
import { NotFoundError } from '../db/errors';
import type { NodeWithRelations } from '../db/models';
import * as nodes from '../db/repositories/nodes';
import { canonicalUuid, isUuidLike, isValidLogicalName } from './ident';
import type { ApiContext } from './state';
import { V } from './versions';

export type NodeRecord = NodeWithRelations;

/** Ironic's old is_hostname_safe() rule, used for names below 1.10 (host, domain labels, trailing dot). */
const HOSTNAME_SAFE_RE = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9\-_]{0,62}[a-z0-9])*\.?$/;

/** api utils is_valid_logical_name: the rule of the request's version. */
export function isLogicalNameAt(name: unknown, version: number): boolean {
  if (typeof name !== 'string' || name.length > 255) return false;
  if (version < V.RFC3986_NODE_NAME) return HOSTNAME_SAFE_RE.test(name);
  return isValidLogicalName(name, version);
}

/** Path segments under /v1/nodes that are routes, never node names (Ironic's reserved words). */
export const NODE_RESERVED_WORDS = ['maintenance', 'management', 'states', 'vendor_passthru', 'detail', 'validate'] as const;

/** Sub-resource words that, used in the node position of a path, answer a bare 404 (NodesController._lookup). */
const SUBCONTROLLER_WORDS = new Set(['ports', 'portgroups', 'vifs', 'volume', 'traits', 'bios', 'allocation',
  'history', 'inventory', 'firmware', 'vmedia', 'children']);

const UNVERSIONED_HEADERS = ['X-OpenStack-Ironic-API-Minimum-Version', 'X-OpenStack-Ironic-API-Maximum-Version',
  'X-OpenStack-Ironic-API-Version', 'Openstack-Request-Id', 'X-Openstack-Request-Id'];

/** A webob abort raised while pecan is still routing: no version headers and no request id on the answer. */
class RoutingAbort extends HttpError {
  stripHeaders = UNVERSIONED_HEADERS;
}

/** pecan.abort(404) from NodesController._lookup (e.g. a sub-resource below its version). */
export function routingNotFound(): HttpError {
  return new RoutingAbort(404, 'Not Found');
}

/** NodeNotFound as Ironic re-raises it for a node named in a request body: 400, not 404. */

/**
 * The routing check pecan applies to the node segment of every /v1/nodes/{ident}/... path, whatever
 * the version: an RFC 3986 logical name or a UUID, else a webob 400; sub-resource words are 404.
 */
export function checkPathIdent(ident: string): void {
  if (SUBCONTROLLER_WORDS.has(ident)) throw new RoutingAbort(404, 'Not Found');
  if (!isValidLogicalName(ident, V.RFC3986_NODE_NAME) && !isUuidLike(ident)) {
    throw new RoutingAbort(400, 'Bad Request', `Expected UUID or name for node: ${ident}`);
  }
}

async function loadOrNotFound(ctx: ApiContext, key: string, ident: string): Promise<NodeRecord> {
  try {
    return await nodes.get(ctx.state.deps.db, key);
  } catch (err) {
    if (err instanceof NotFoundError) throw new NodeNotFound({ node: ident });
    throw err;
  }
}

/** The node named by a path ident (uuid, or a name from 1.5 on). */
export async function getNodeByIdent(ctx: ApiContext, ident: string): Promise<NodeRecord> {
  if (isUuidLike(ident)) return loadOrNotFound(ctx, canonicalUuid(ident), ident);
  if (ctx.state.version >= V.NODE_NAME) {
    if (isLogicalNameAt(ident, ctx.state.version)) return loadOrNotFound(ctx, ident, ident);
    throw new InvalidUuidOrName({ name: ident });
  }
  throw new NodeNotFound({ node: ident });
}

/**
 * get_rpc_node_with_suffix (a node's show, PATCH and DELETE): when a `.json` suffix was stripped
 * from the path and no node has the remaining ident, the ident with the suffix is tried.
 */
export async function getNodeByPathIdent(ctx: ApiContext, ident: string): Promise<NodeRecord> {
  try {
    return await getNodeByIdent(ctx, ident);
  } catch (err) {
    if (!(err instanceof NodeNotFound) || !ctx.state.jsonSuffix) throw err;
    return getNodeByIdent(ctx, `${ident}.json`);
  }
}

/**
 * The node a request body refers to by uuid (port.node_uuid, portgroup.node_uuid, volume *.node_uuid):
 * a missing node is NodeNotFound with 400, as replace_node_uuid_with_id re-raises it.
 */
export async function getNodeForBodyUuid(ctx: ApiContext, uuid: string): Promise<NodeRecord> {
  try {
    return await nodes.get(ctx.state.deps.db, isUuidLike(uuid) ? canonicalUuid(uuid) : uuid);
  } catch (err) {
    if (err instanceof NotFoundError) throw inBody(new NodeNotFound({ node: uuid }));
    throw err;
  }
}

/** Nodes by internal id, for views that show node_uuid from node_id without a per-row query. */
export async function nodeUuidsById(ctx: ApiContext, ids: number[]): Promise<Map<number, string>> {
  const unique = [...new Set(ids)];
  const out = new Map<number, string>();
  for (let i = 0; i < unique.length; i += 900) {
    const rows = await ctx.state.deps.db.knex('nodes').select('id', 'uuid').whereIn('id', unique.slice(i, i + 900)) as
      Array<{ id: number; uuid: string }>;
    for (const row of rows) out.set(Number(row.id), row.uuid);
  }
  return out;
}
