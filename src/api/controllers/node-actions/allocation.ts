/**
 * /v1/nodes/{ident}/allocation (NodeAllocationController, 1.52): the node's allocation, and its
 * removal through the same backend DELETE /v1/allocations/{id} uses.
 */
import { notifyApiChange } from '../../../notifications/events';
import { apiNotifyContext } from '../../notify-context';
import type Router from '@koa/router';
import { AllocationNotFound } from '../../../common/errors';
import type { AllocationRecord } from '../../../db/models';
import * as allocationsRepo from '../../../db/repositories/allocations';
import { baseUrl } from '../../links';
import { checkPathIdent, getNodeByIdent, NodeRecord, routingNotFound } from '../../node-lookup';
import * as args from '../../schemas/args';
import { readQuery } from '../../schemas/list-query';
import type { ApiContext, ApiState } from '../../state';
import { V } from '../../versions';
import { allocationView } from '../../views/allocation';

type Ctx = ApiContext & { params: Record<string, string> };

async function allocationOf(ctx: Ctx): Promise<{ node: NodeRecord; allocation: AllocationRecord; ident: string }> {
  const ident = ctx.params.node_ident;
  const node = await getNodeByIdent(ctx, ident);
  const [allocation] = await allocationsRepo.list(ctx.state.deps.db, { node_id: node.id }, { limit: 1 });
  if (!allocation) throw new AllocationNotFound(`Allocation for node ${ident} was not found`);
  return { node, allocation, ident };
}

function gate(ctx: Ctx): void {
  checkPathIdent(ctx.params.node_ident);
  if (ctx.state.version < V.ALLOCATIONS) throw routingNotFound();
}

async function showAllocation(ctx: Ctx): Promise<void> {
  gate(ctx);
  const q = readQuery(ctx, ['fields']);
  const fields = args.stringList('fields', q.fields);
  const { node, allocation } = await allocationOf(ctx);
  ctx.body = allocationView(baseUrl(ctx), allocation, node.uuid, ctx.state.version, fields);
}

async function deleteAllocation(ctx: Ctx): Promise<void> {
  gate(ctx);
  // Ironic's handler takes no argument and fails on any with a TypeError (500); here they are unexpected.
  readQuery(ctx, []);
  const { node, allocation } = await allocationOf(ctx);
  await notifyApiChange(apiNotifyContext(ctx), 'allocation', 'delete', allocation,
    () => ctx.state.deps.conductor.destroyAllocation(allocation.uuid), { node_uuid: node.uuid });
  ctx.status = 204;
}

export function addAllocationRoutes(router: Router<ApiState>): void {
  router.get('/v1/nodes/:node_ident/allocation', showAllocation);
  router.delete('/v1/nodes/:node_ident/allocation', deleteAllocation);
}
