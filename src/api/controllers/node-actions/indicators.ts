/**
 * /v1/nodes/{ident}/management/indicators (IndicatorController) and
 * /v1/nodes/{ident}/vendor_passthru/methods. Both need conductor calls that ConductorApi does not
 * declare yet (get_supported_indicators, get/set_indicator_state, get_node_vendor_passthru_methods):
 * they are used when the conductor offers them, otherwise the request fails saying so.
 */
import type Router from '@koa/router';
import { IronicError, InvalidParameterValue } from '../../../common/errors';
import { baseUrl, makeLink } from '../../links';
import { getNodeByIdent } from '../../node-lookup';
import { repo } from '../../repo-errors';
import * as args from '../../schemas/args';
import type { ApiContext, ApiState } from '../../state';
import { conductorTopic, nodeIdentArg, readArgs } from './params';

type Ctx = ApiContext & { params: Record<string, string> };

interface IndicatorFields {
  readonly?: boolean;
  states?: string[];
}

/** The optional conductor calls (rpcapi names in camelCase). */
interface IndicatorRpc {
  getSupportedIndicators?(nodeUuid: string): Promise<Record<string, Record<string, IndicatorFields>>>;
  getIndicatorState?(nodeUuid: string, component: string, indicator: string): Promise<string>;
  setIndicatorState?(nodeUuid: string, component: string, indicator: string, state: string): Promise<void>;
  getNodeVendorPassthruMethods?(nodeUuid: string): Promise<Record<string, unknown>>;
}

function rpcOf<K extends keyof IndicatorRpc>(ctx: ApiContext, name: K): NonNullable<IndicatorRpc[K]> {
  const rpc = ctx.state.deps.conductor as unknown as IndicatorRpc;
  const fn = rpc[name];
  if (typeof fn !== 'function') throw new IronicError(`The conductor does not provide ${name}.`);
  return (fn as (...a: unknown[]) => unknown).bind(rpc) as NonNullable<IndicatorRpc[K]>;
}

/** IndicatorAtComponent(unique_name=...): "<name>@<component>". */
function splitIndicator(unique: string): { name: string; component: string } {
  const at = unique.indexOf('@');
  if (at < 0) throw new InvalidParameterValue(`Malformed indicator name "${unique}"`);
  return { name: unique.slice(0, at), component: unique.slice(at + 1) };
}

async function listIndicators(ctx: Ctx): Promise<void> {
  const ident = ctx.params.node_ident;
  readArgs(ctx, [], () => nodeIdentArg(ident));
  const node = await getNodeByIdent(ctx, ident);
  await conductorTopic(ctx, node);
  const supported = await repo(rpcOf(ctx, 'getSupportedIndicators')(node.uuid));
  const base = baseUrl(ctx);
  const indicators = Object.entries(supported).flatMap(([component, names]) =>
    Object.entries(names).map(([name, fields]) => {
      const unique = `${name}@${component}`;
      const path = `${ident}/management/indicators/${unique}`;
      return {
        name: unique, component, readonly: fields.readonly ?? true, states: fields.states ?? [],
        links: [makeLink(base, 'self', 'nodes', path), makeLink(base, 'bookmark', 'nodes', path, true)],
      };
    }));
  ctx.body = { indicators };
}

async function showIndicator(ctx: Ctx): Promise<void> {
  const ident = ctx.params.node_ident;
  readArgs(ctx, [], () => nodeIdentArg(ident));
  const node = await getNodeByIdent(ctx, ident);
  await conductorTopic(ctx, node);
  const { name, component } = splitIndicator(ctx.params.indicator);
  ctx.body = { state: await repo(rpcOf(ctx, 'getIndicatorState')(node.uuid, component, name)) };
}

async function setIndicator(ctx: Ctx): Promise<void> {
  const ident = ctx.params.node_ident;
  const a = readArgs(ctx, [{ name: 'state', validate: args.string, required: true }], () => nodeIdentArg(ident));
  const node = await getNodeByIdent(ctx, ident);
  await conductorTopic(ctx, node);
  const { name, component } = splitIndicator(ctx.params.indicator);
  await repo(rpcOf(ctx, 'setIndicatorState')(node.uuid, component, name, a.state as string));
  ctx.status = 204;
}

/** Ironic caches each driver's vendor methods for the life of the API process. */
const vendorMethodsByDriver = new Map<string, Record<string, unknown>>();

async function vendorMethods(ctx: Ctx): Promise<void> {
  const ident = ctx.params.node_ident;
  readArgs(ctx, [], () => nodeIdentArg(ident));
  const node = await getNodeByIdent(ctx, ident);
  const driver = node.driver ?? '';
  let methods = vendorMethodsByDriver.get(driver);
  if (!methods) {
    await conductorTopic(ctx, node);
    methods = await repo(rpcOf(ctx, 'getNodeVendorPassthruMethods')(node.uuid));
    vendorMethodsByDriver.set(driver, methods);
  }
  ctx.body = methods;
}

export function addIndicatorRoutes(router: Router<ApiState>): void {
  router.get('/v1/nodes/:node_ident/management/indicators', listIndicators);
  router.get('/v1/nodes/:node_ident/management/indicators/:indicator', showIndicator);
  router.put('/v1/nodes/:node_ident/management/indicators/:indicator', setIndicator);
  router.get('/v1/nodes/:node_ident/vendor_passthru/methods', vendorMethods);
}
