/**
 * /v1/nodes/{ident}/vendor_passthru (NodeVendorPassthruController): the driver's vendor methods
 * and calls to them, relayed untouched through the conductor.
 */
import type Router from '@koa/router';
import { ClientSideError } from '../../../common/errors';
import { getNodeByIdent } from '../../node-lookup';
import * as args from '../../schemas/args';
import type { ApiContext, ApiState } from '../../state';
import { addPassthruCallRoutes, passthruMethod } from '../passthru-method';
import { accepted, bodyOrEmpty, conductorTopic, nodeIdentArg, readArgs } from './params';

type Ctx = ApiContext & { params: Record<string, string> };

/** Ironic caches each driver's vendor methods for the life of the API process. */
const methodsByDriver = new Map<string, Record<string, unknown>>();

async function listMethods(ctx: Ctx): Promise<void> {
  const ident = ctx.params.node_ident;
  readArgs(ctx, [], () => nodeIdentArg(ident));
  const node = await getNodeByIdent(ctx, ident);
  const driver = node.driver ?? '';
  let methods = methodsByDriver.get(driver);
  if (!methods) {
    await conductorTopic(ctx, node);
    methods = await ctx.state.deps.conductor.getNodeVendorPassthruMethods(node.uuid);
    methodsByDriver.set(driver, methods);
  }
  ctx.body = methods;
}

/** utils.vendor_passthru: 202 for asynchronous methods, 200 with the return value otherwise. */
async function callMethod(ctx: Ctx): Promise<void> {
  const ident = ctx.params.node_ident;
  nodeIdentArg(ident);
  const named = passthruMethod(ctx.params.method, ctx.query.method);
  const method = args.string('method', named ?? undefined);
  if (method === null) throw new ClientSideError('Missing mandatory parameter: method');
  const node = await getNodeByIdent(ctx, ident);
  await conductorTopic(ctx, node);
  if (!method) throw new ClientSideError('Method not specified');
  const result = await ctx.state.deps.conductor.vendorPassthru(node.uuid, method, ctx.method.toUpperCase(), bodyOrEmpty(ctx));
  if (result.async && (result.return === null || result.return === undefined)) {
    accepted(ctx);
    return;
  }
  ctx.status = result.async ? 202 : 200;
  ctx.body = JSON.stringify(result.return ?? null);
}

export function addVendorRoutes(router: Router<ApiState>): void {
  router.get('/v1/nodes/:node_ident/vendor_passthru/methods', listMethods);
  addPassthruCallRoutes(router, '/v1/nodes/:node_ident/vendor_passthru', callMethod);
}
