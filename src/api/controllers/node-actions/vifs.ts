/**
 * /v1/nodes/{ident}/vifs (NodeVIFController, 1.28): list, attach (port_uuid / portgroup_uuid from
 * 1.67) and detach, all through the conductor.
 */
import type Router from '@koa/router';
import { Invalid } from '../../../common/errors';
import type { VifInfo } from '../../../rpc/conductor-api';
import { checkPathIdent, getNodeByIdent, routingNotFound } from '../../node-lookup';
import * as args from '../../schemas/args';
import { VIF_SCHEMA } from '../../schemas/node';
import type { ApiContext, ApiState } from '../../state';
import { V } from '../../versions';
import { bodyOrEmpty, conductorTopic, readArgs } from './params';

type Ctx = ApiContext & { params: Record<string, string> };

function gate(ctx: Ctx): string {
  const ident = ctx.params.node_ident;
  checkPathIdent(ident);
  if (ctx.state.version < V.VIFS) throw routingNotFound();
  return ident;
}

async function nodeAndTopic(ctx: Ctx, ident: string) {
  const node = await getNodeByIdent(ctx, ident);
  await conductorTopic(ctx, node, true);
  return node;
}

async function listVifs(ctx: Ctx): Promise<void> {
  const node = await nodeAndTopic(ctx, gate(ctx));
  ctx.body = { vifs: await ctx.state.deps.conductor.vifList(node.uuid) };
}

async function attachVif(ctx: Ctx): Promise<void> {
  const ident = gate(ctx);
  const vif = bodyOrEmpty(ctx);
  args.schema(VIF_SCHEMA)('vif', vif);
  const info = args.requiredBody('vif', args.dictValid({ id: args.uuidOrName })('vif', vif) as VifInfo | null);
  const node = await nodeAndTopic(ctx, ident);
  if (ctx.state.version >= V.VIF_PORT_PORTGROUP && Object.hasOwn(info, 'port_uuid') && Object.hasOwn(info, 'portgroup_uuid')) {
    throw new Invalid('Cannot specify both port_uuid and portgroup_uuid');
  }
  await ctx.state.deps.conductor.vifAttach(node.uuid, info);
  ctx.status = 204;
}

/** delete(vif_id): the VIF from the path or, on /vifs itself, from the query or a DELETE body. */
async function detachVif(ctx: Ctx): Promise<void> {
  const ident = gate(ctx);
  const fromPath = ctx.params.vif_id as string | undefined;
  const vifId = fromPath === undefined
    ? readArgs(ctx, [{ name: 'vif_id', validate: args.uuidOrName, required: true }]).vif_id as string
    : (readArgs(ctx, []), args.uuidOrName('vif_id', fromPath) as string);
  const node = await nodeAndTopic(ctx, ident);
  await ctx.state.deps.conductor.vifDetach(node.uuid, vifId);
  ctx.status = 204;
}

export function addVifRoutes(router: Router<ApiState>): void {
  router.get('/v1/nodes/:node_ident/vifs', listVifs);
  router.post('/v1/nodes/:node_ident/vifs', attachVif);
  router.delete('/v1/nodes/:node_ident/vifs', detachVif);
  router.delete('/v1/nodes/:node_ident/vifs/:vif_id', detachVif);
}
