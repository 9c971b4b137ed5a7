/**
 * /v1/nodes/{ident}/management/indicators (IndicatorController): the list, and one indicator's
 * state read or set through the conductor.
 */
import type Router from '@koa/router';
import { InvalidParameterValue } from '../../../common/errors';
import { baseUrl, makeLink } from '../../links';
import { getNodeByIdent } from '../../node-lookup';
import * as args from '../../schemas/args';
import type { ApiContext, ApiState } from '../../state';
import { conductorTopic, nodeIdentArg, readArgs } from './params';

type Ctx = ApiContext & { params: Record<string, string> };


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
  const supported = await ctx.state.deps.conductor.getSupportedIndicators(node.uuid);
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
  ctx.body = { state: await ctx.state.deps.conductor.getIndicatorState(node.uuid, component, name) };
}

async function setIndicator(ctx: Ctx): Promise<void> {
  const ident = ctx.params.node_ident;
  const a = readArgs(ctx, [{ name: 'state', validate: args.string, required: true }], () => nodeIdentArg(ident));
  const node = await getNodeByIdent(ctx, ident);
  await conductorTopic(ctx, node);
  const { name, component } = splitIndicator(ctx.params.indicator);
  await ctx.state.deps.conductor.setIndicatorState(node.uuid, component, name, a.state as string);
  ctx.status = 204;
}

/** /v1/nodes/management/indicators/{node}: pecan's get_one(node_ident, indicator) without its indicator. */
function indicatorMissing(): void {
  throw new InvalidParameterValue('Missing mandatory parameter: indicator');
}

export function addIndicatorRoutes(router: Router<ApiState>): void {
  router.get('/v1/nodes/management/indicators/:node_ident', indicatorMissing);
  router.get('/v1/nodes/:node_ident/management/indicators', listIndicators);
  router.get('/v1/nodes/:node_ident/management/indicators/:indicator', showIndicator);
  router.put('/v1/nodes/:node_ident/management/indicators/:indicator', setIndicator);
}
