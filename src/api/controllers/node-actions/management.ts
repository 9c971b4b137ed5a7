/**
 * /v1/nodes/{ident}/management (NodeManagementController of Ironic 21.4.4): boot device get/set,
 * supported boot devices, and NMI injection (1.29).
 */
import type Router from '@koa/router';
import { NotFound } from '../../../common/errors';
import { getNodeByIdent } from '../../node-lookup';
import * as args from '../../schemas/args';
import type { ApiContext, ApiState } from '../../state';
import { V } from '../../versions';
import { conductorTopic, nodeIdentArg, readArgs } from './params';

type Ctx = ApiContext & { params: Record<string, string> };

async function getBootDevice(ctx: Ctx): Promise<void> {
  readArgs(ctx, [], () => nodeIdentArg(ctx.params.node_ident));
  const node = await getNodeByIdent(ctx, ctx.params.node_ident);
  await conductorTopic(ctx, node);
  ctx.body = await ctx.state.deps.conductor.getBootDevice(node.uuid);
}

async function getSupportedBootDevices(ctx: Ctx): Promise<void> {
  readArgs(ctx, [], () => nodeIdentArg(ctx.params.node_ident));
  const node = await getNodeByIdent(ctx, ctx.params.node_ident);
  await conductorTopic(ctx, node);
  ctx.body = { supported_boot_devices: await ctx.state.deps.conductor.getSupportedBootDevices(node.uuid) };
}

async function setBootDevice(ctx: Ctx): Promise<void> {
  const ident = ctx.params.node_ident;
  const a = readArgs(ctx, [
    { name: 'boot_device', validate: args.string, required: true },
    { name: 'persistent', validate: args.boolean },
  ], () => nodeIdentArg(ident));
  const node = await getNodeByIdent(ctx, ident);
  await conductorTopic(ctx, node);
  await ctx.state.deps.conductor.setBootDevice(node.uuid, a.boot_device as string, (a.persistent ?? false) as boolean);
  ctx.status = 204;
}

async function injectNmi(ctx: Ctx): Promise<void> {
  const ident = ctx.params.node_ident;
  readArgs(ctx, [], () => nodeIdentArg(ident));
  if (ctx.state.version < V.INJECT_NMI) throw new NotFound();
  const node = await getNodeByIdent(ctx, ident);
  await conductorTopic(ctx, node);
  await ctx.state.deps.conductor.injectNmi(node.uuid);
  ctx.status = 204;
}

export function addManagementRoutes(router: Router<ApiState>): void {
  router.get('/v1/nodes/:node_ident/management/boot_device', getBootDevice);
  router.put('/v1/nodes/:node_ident/management/boot_device', setBootDevice);
  router.get('/v1/nodes/:node_ident/management/boot_device/supported', getSupportedBootDevices);
  router.put('/v1/nodes/:node_ident/management/inject_nmi', injectNmi);
}
