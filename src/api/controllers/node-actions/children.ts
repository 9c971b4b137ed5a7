/**
 * GET /v1/nodes/{ident}/children (NodeChildrenController of Ironic 2025.1, API 1.83): the UUIDs of
 * the nodes whose parent_node is this node, and a link to the node list filtered the same way.
 */
import type Router from '@koa/router';
import * as nodesRepo from '../../../db/repositories/nodes';
import { baseUrl } from '../../links';
import { checkPathIdent, getNodeByIdent, routingNotFound } from '../../node-lookup';
import { listScope } from '../../policy/scope';
import { readQuery } from '../../schemas/list-query';
import type { ApiContext, ApiState } from '../../state';
import { V } from '../../versions';
import { methodNotAllowed, refuseOtherVerbs } from '../method-rules';

type Ctx = ApiContext & { params: Record<string, string> };

async function listChildren(ctx: Ctx): Promise<void> {
  const ident = ctx.params.node_ident;
  lookup(ctx);
  readQuery(ctx, []);
  const parent = await getNodeByIdent(ctx, ident);
  const children = await nodesRepo.list(ctx.state.deps.db, { parent_node: parent.uuid, ...listScope(ctx.state.auth) },
    { withoutRelations: true, columns: ['id', 'uuid'] });
  ctx.body = {
    children: children.map((node) => node.uuid),
    // One link object, not a list: Ironic builds it with make_link alone.
    links: { href: `${baseUrl(ctx)}/v1/nodes?parent_node=${parent.uuid}`, rel: 'children' },
  };
}

/** _lookup's checks: the ident's form, then the version the controller needs. */
function lookup(ctx: ApiContext): void {
  checkPathIdent((ctx as Ctx).params.node_ident);
  if (ctx.state.version < V.PARENT_CHILD_NODES) throw routingNotFound();
}

/** get_all takes no path arguments: pecan answers a longer GET path with 405. */
function belowChildren(ctx: Ctx): void {
  lookup(ctx);
  throw methodNotAllowed(['GET']);
}

export function addChildrenRoutes(router: Router<ApiState>): void {
  router.get('/v1/nodes/:node_ident/children', listChildren);
  router.get('/v1/nodes/:node_ident/children/*rest', belowChildren);
  refuseOtherVerbs(router, '/v1/nodes/:node_ident/children', ['get'], lookup);
}
