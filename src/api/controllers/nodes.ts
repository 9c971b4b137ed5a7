/**
 * /v1/nodes (NodesController of Ironic 21.4.4): lists, show, create, update, delete and the
 * collection-level validate. The node's sub-resources and actions live in node-actions.ts.
 * `/v1/chassis/{uuid}/nodes[/detail]` is served here too, by the same list handler.
 */
import { notifyApiChange } from '../../notifications/events';
import { apiNotifyContext } from '../notify-context';
import Router from '@koa/router';
import { InvalidParameterValue, InvalidUuidOrName, NodeNotFound, NotAcceptable, NotFound, OperationNotPermitted } from '../../common/errors';
import { isUuidLike } from '../ident';
import { baseUrl } from '../links';
import { checkPathIdent, getNodeByIdent, getNodeByPathIdent } from '../node-lookup';
import * as args from '../schemas/args';
import { checkAllowFields, deleteIdent, readQuery } from '../schemas/list-query';
import type { ApiContext, ApiState } from '../state';
import { V } from '../versions';
import { nodeView } from '../views/node';
import { loadNodeExtras } from '../views/node-extras';
import { conductorTopic } from './node-actions/params';
import { createNode } from './node-create';
import { checkAllowedNodeFields, listNodes } from './node-list';
import { chassisUuidOf, patchNode } from './node-patch';
import { methodNotAllowed } from './method-rules';
import { validationView } from '../views/validation';

async function showNode(ctx: ApiContext, ident: string, pathFields?: string): Promise<void> {
  const q = readQuery(ctx, pathFields === undefined ? ['fields'] : []);
  const fields = args.stringList('fields', pathFields ?? q.fields);
  const node = await getNodeByPathIdent(ctx, ident);
  checkAllowFields(ctx, fields);
  checkAllowedNodeFields(ctx.state.version, fields);
  const needExtras = await loadNodeExtras(ctx, [node], fields);
  ctx.body = nodeView(node, { base: baseUrl(ctx), version: ctx.state.version, fields }, needExtras.get(node.id) ?? {});
}

/** DELETE /v1/nodes/{node}, or /v1/nodes naming the node in the query or body (`fromPath` undefined). */
async function deleteNode(ctx: ApiContext, fromPath: string | undefined): Promise<void> {
  const ident = args.uuidOrName('node_ident', deleteIdent(ctx, 'node_ident', fromPath))!;
  const node = await getNodeByPathIdent(ctx, ident);
  await conductorTopic(ctx, node, true);
  const chassisUuid = await chassisUuidOf(ctx, node.chassis_id);
  await notifyApiChange(apiNotifyContext(ctx), 'node', 'delete', node,
    () => ctx.state.deps.conductor.destroyNode(node.uuid), { chassis_uuid: chassisUuid });
  ctx.status = 204;
}

/** GET /v1/nodes/validate?node= (or the deprecated node_uuid=). */
async function validateByQuery(ctx: ApiContext): Promise<void> {
  const q = readQuery(ctx, ['node', 'node_uuid']);
  const node = args.uuidOrName('node', q.node);
  const nodeUuid = args.uuid('node_uuid', q.node_uuid);
  if (node !== null && ctx.state.version < V.NODE_NAME && !isUuidLike(node)) throw new NotAcceptable();
  const ident = nodeUuid ?? node;
  if (ident === null) {
    if (ctx.state.version >= V.NODE_NAME) throw new InvalidUuidOrName({ name: null });
    throw new NodeNotFound({ node: null });
  }
  const record = await getNodeByIdent(ctx, ident);
  await conductorTopic(ctx, record);
  ctx.body = validationView(await ctx.state.deps.conductor.validateDriverInterfaces(record.uuid));
}

function withIdent(handler: (ctx: ApiContext, ident: string) => Promise<void>) {
  return async (ctx: ApiContext & { params: Record<string, string> }): Promise<void> => {
    const ident = ctx.params.node_ident;
    checkPathIdent(ident);
    await handler(ctx, ident);
  };
}

/** GET /v1/nodes/{node}/{fields}: pecan hands a further path segment to get_one as its `fields`. */
async function showNodeFieldsInPath(ctx: ApiContext & { params: Record<string, string> }): Promise<void> {
  checkPathIdent(ctx.params.node_ident);
  await showNode(ctx, ctx.params.node_ident, ctx.params.fields);
}

/**
 * GET /v1/nodes/{x}/detail: pecan calls detail with x as its chassis_uuid, and detail then refuses
 * any path but /v1/nodes/detail.
 */
function detailBelowNode(ctx: ApiContext & { params: Record<string, string> }): void {
  args.uuid('chassis_uuid', ctx.params.node_ident);
  throw new NotFound();
}

function chassisList(detail: boolean) {
  return async (ctx: ApiContext & { params: Record<string, string> }): Promise<void> => {
    await listNodes(ctx, { chassisUuid: ctx.params.chassis_uuid }, detail);
  };
}

export function nodesRouter(): Router<ApiState> {
  const router = new Router<ApiState>();
  router.get('/v1/nodes', (ctx) => listNodes(ctx));
  router.post('/v1/nodes', createNode);
  router.get('/v1/nodes/detail', (ctx) => listNodes(ctx, {}, true));
  router.get('/v1/nodes/validate', validateByQuery);
  router.get('/v1/nodes/:node_ident', withIdent(showNode));
  router.patch('/v1/nodes/:node_ident', withIdent(patchNode));
  router.delete('/v1/nodes/:node_ident', withIdent(deleteNode));
  router.get('/v1/chassis/:chassis_uuid/nodes', chassisList(false));
  router.get('/v1/chassis/:chassis_uuid/nodes/detail', chassisList(true));
  router.get('/v1/chassis/:chassis_uuid/nodes/:node_ident', () => { throw new OperationNotPermitted(); });
  router.delete('/v1/nodes/:node_ident/*rest', () => { throw new NotFound(); });
  // A node's ports and portgroups are listed, never shown one by one there.
  router.get('/v1/nodes/:node_ident/ports/:port_ident', () => { throw new OperationNotPermitted(); });
  router.get('/v1/nodes/:node_ident/portgroups/:portgroup_ident', () => { throw new OperationNotPermitted(); });
  router.get('/v1/nodes/:node_ident/detail', detailBelowNode);
  // NodeManagementController has no get of its own.
  router.get('/v1/nodes/:node_ident/management', () => { throw methodNotAllowed([]); });
  router.get('/v1/nodes/:node_ident/:fields', showNodeFieldsInPath);
  // Any other GET below a node is routing's plain 404, not a 405 from the DELETE catch-all above.
  router.get('/v1/nodes/:node_ident/*rest', () => undefined);
  router.delete('/v1/nodes', (ctx) => deleteNode(ctx, undefined));
  return router;
}
