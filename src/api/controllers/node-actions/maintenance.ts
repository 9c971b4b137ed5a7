/**
 * /v1/nodes/{ident}/maintenance (NodeMaintenanceController) and /v1/nodes/{ident}/validate: both
 * go to the conductor (update_node with the maintenance fields; validate_driver_interfaces).
 */
import { notifyApiChange } from '../../../notifications/events';
import { apiNotifyContext } from '../../notify-context';
import * as nodesRepo from '../../../db/repositories/nodes';
import type Router from '@koa/router';
import { NotAcceptable } from '../../../common/errors';
import { isUuidLike } from '../../ident';
import { getNodeByIdent } from '../../node-lookup';
import * as args from '../../schemas/args';
import type { ApiContext, ApiState } from '../../state';
import { V } from '../../versions';
import { accepted, conductorTopic, nodeIdentArg, readArgs } from './params';
import { validationView } from '../../views/validation';
import { methodNotAllowed } from '../method-rules';

type Ctx = ApiContext & { params: Record<string, string> };

async function setMaintenance(ctx: Ctx, on: boolean, reason: string | null): Promise<void> {
  const node = await getNodeByIdent(ctx, ctx.params.node_ident);
  await conductorTopic(ctx, { ...node }, true);
  // _set_maintenance: the notifications describe the node with the maintenance fields as requested.
  const changed = { ...node, maintenance: on, maintenance_reason: reason };
  await notifyApiChange(apiNotifyContext(ctx), 'node', 'maintenance_set', changed, async () => {
    await ctx.state.deps.conductor.updateNode(node.uuid, { maintenance: on, maintenance_reason: reason });
    return { ...await nodesRepo.get(ctx.state.deps.db, node.uuid) };
  });
  accepted(ctx);
}

async function putMaintenance(ctx: Ctx): Promise<void> {
  const a = readArgs(ctx, [{ name: 'reason', validate: args.string }], () => nodeIdentArg(ctx.params.node_ident));
  await setMaintenance(ctx, true, (a.reason ?? null) as string | null);
}

async function deleteMaintenance(ctx: Ctx): Promise<void> {
  readArgs(ctx, [], () => nodeIdentArg(ctx.params.node_ident));
  await setMaintenance(ctx, false, null);
}

/** GET /v1/nodes/{ident}/validate: pecan routes it to NodesController.validate(node=ident). */
async function validateNode(ctx: Ctx): Promise<void> {
  const ident = ctx.params.node_ident;
  readArgs(ctx, [], () => args.uuidOrName('node', ident));
  if (ctx.state.version < V.NODE_NAME && !isUuidLike(ident)) throw new NotAcceptable();
  const node = await getNodeByIdent(ctx, ident);
  await conductorTopic(ctx, node);
  ctx.body = validationView(await ctx.state.deps.conductor.validateDriverInterfaces(node.uuid));
}

export function addMaintenanceRoutes(router: Router<ApiState>): void {
  router.put('/v1/nodes/:node_ident/maintenance', putMaintenance);
  router.delete('/v1/nodes/:node_ident/maintenance', deleteMaintenance);
  router.get('/v1/nodes/:node_ident/maintenance', () => { throw methodNotAllowed(['DELETE', 'PUT']); });
  router.get('/v1/nodes/:node_ident/validate', validateNode);
}
