/**
 * /v1/nodes/{ident}/traits (NodeTraitsController, 1.37): list, replace all, add one, remove one or
 * all. Trait names are checked against Ironic's TRAITS_SCHEMA (CUSTOM_* or an os-traits name).
 */
import { notifyApiChange } from '../../../notifications/events';
import { apiNotifyContext } from '../../notify-context';
import { chassisUuidOf } from '../node-patch';
import { traitsByNode } from '../../../db/repositories/node-relations';
import type { NodeRecord } from '../../../db/models';
import type Router from '@koa/router';
import { Invalid, NodeTraitNotFound, NotAcceptable, NotFound } from '../../../common/errors';
import * as traitsRepo from '../../../db/repositories/node-traits';
import { checkPathIdent, getNodeByIdent } from '../../node-lookup';
import * as args from '../../schemas/args';
import { TRAIT_SCHEMA, TRAITS_BODY_SCHEMA } from '../../schemas/node';
import type { ApiContext, ApiState } from '../../state';
import { V } from '../../versions';
import { bodyOrEmpty, conductorTopic, nodeLocation, readArgs } from './params';

type Ctx = ApiContext & { params: Record<string, string> };

const EXCLUSIVE = 'A single node trait may be added via PUT /v1/nodes/<node identifier>/traits/<trait> with no body, ' +
  'or all node traits may be replaced via PUT /v1/nodes/<node identifier>/traits with the list of traits specified ' +
  'in the request body.';

function hasTraits(ctx: ApiContext): boolean {
  return ctx.state.version >= V.NODE_TRAITS;
}

async function listTraits(ctx: Ctx): Promise<void> {
  checkPathIdent(ctx.params.node_ident);
  const node = await getNodeByIdent(ctx, ctx.params.node_ident);
  // Below 1.37 pecan reads "traits" as get_one's `fields`, which the version does not allow.
  if (!hasTraits(ctx)) throw new NotAcceptable();
  const traits = await traitsRepo.listTraits(ctx.state.deps.db, node.id);
  ctx.body = { traits: traits.map((t) => t.trait) };
}

function bodyPresent(ctx: ApiContext): boolean {
  const body = ctx.state.body;
  if (body === undefined || body === null || body === false || body === 0 || body === '') return false;
  if (Array.isArray(body)) return body.length > 0;
  return typeof body !== 'object' || Object.keys(body).length > 0;
}

async function putTraits(ctx: Ctx, trait: string | null): Promise<void> {
  const ident = ctx.params.node_ident;
  checkPathIdent(ident);
  if (!hasTraits(ctx)) {
    // Below 1.37 pecan routes PUT to NodesController, which has no put: the app answers its 405.
    ctx.status = 405;
    return;
  }
  if (trait !== null) args.schema(TRAIT_SCHEMA)('trait', trait);
  const body = bodyOrEmpty(ctx);
  args.schema(TRAITS_BODY_SCHEMA)('body', body);
  const node = await getNodeByIdent(ctx, ident);
  const listed = body && typeof body === 'object' && 'traits' in body ? (body as { traits: string[] }).traits : null;
  if ((trait && listed !== null) || !(trait || listed !== null)) throw new Invalid(EXCLUSIVE);
  if (trait && bodyPresent(ctx)) throw new Invalid('No body should be provided when adding a trait');
  await conductorTopic(ctx, node);
  const replace = !trait;
  const current = await currentTraits(ctx, node.id);
  const wanted = trait ? [...current, trait] : listed as string[];
  await notifyTraitChange(ctx, node, wanted,
    () => ctx.state.deps.conductor.addNodeTraits(node.uuid, trait ? [trait] : listed as string[], replace));
  if (trait) nodeLocation(ctx, ident, `traits/${trait}`);
  ctx.status = 204;
}

/** delete(trait=None): one trait from the path or, without one there, from the query or a DELETE body; else all. */
async function deleteTraits(ctx: Ctx, fromPath: string | null): Promise<void> {
  const ident = ctx.params.node_ident;
  checkPathIdent(ident);
  if (!hasTraits(ctx)) throw new NotFound();
  const trait = fromPath ?? (readArgs(ctx, [{ name: 'trait', validate: args.string }]).trait as string | null | undefined) ?? null;
  if (fromPath !== null) readArgs(ctx, []);
  const node = await getNodeByIdent(ctx, ident);
  await conductorTopic(ctx, node);
  const current = await currentTraits(ctx, node.id);
  try {
    await notifyTraitChange(ctx, node, trait ? current.filter((t) => t !== trait) : [],
      () => ctx.state.deps.conductor.removeNodeTraits(node.uuid, trait ? [trait] : null));
  } catch (err) {
    if (err instanceof NodeTraitNotFound) throw new NodeTraitNotFound({ node_id: node.uuid, trait });
    throw err;
  }
  ctx.status = 204;
}

async function currentTraits(ctx: ApiContext, nodeId: number): Promise<string[]> {
  return (await traitsByNode(ctx.state.deps.db.knex, [nodeId])).get(nodeId) ?? [];
}

/** Ironic's trait controllers notify a node `update`, describing the node with its traits as they will be. */
async function notifyTraitChange(ctx: ApiContext, node: NodeRecord, traits: string[], change: () => Promise<void>): Promise<void> {
  const source = { ...node, traits: [...new Set(traits)].sort() };
  await notifyApiChange(apiNotifyContext(ctx), 'node', 'update', source, change, { chassis_uuid: await chassisUuidOf(ctx, node.chassis_id) });
}

export function addTraitRoutes(router: Router<ApiState>): void {
  router.get('/v1/nodes/:node_ident/traits', listTraits);
  router.put('/v1/nodes/:node_ident/traits', (ctx) => putTraits(ctx, null));
  router.put('/v1/nodes/:node_ident/traits/:trait', (ctx) => putTraits(ctx, ctx.params.trait));
  router.delete('/v1/nodes/:node_ident/traits', (ctx) => deleteTraits(ctx, null));
  router.delete('/v1/nodes/:node_ident/traits/:trait', (ctx) => deleteTraits(ctx, ctx.params.trait));
}
