/** GET /v1/shards (shard.py, 1.82+): node counts per shard, largest first ("None" for unsharded nodes). */
import Router from '@koa/router';
import { defineError } from '../../common/errors';
import { readQuery } from '../schemas/list-query';
import type { ApiContext, ApiState } from '../state';
import { V } from '../versions';
import { refuseOtherVerbs } from './method-rules';

/** pecan.abort(404) inside an exposed method renders as a fault with webob's text. */
const ShardNotFound = defineError('HTTPNotFound', 404, 'The resource could not be found.');

/** validation.api_version's webob 404, raised inside the exposed method: a fault with its text. */
const ShardsTooOld = defineError('HTTPNotFound', 404, 'The API version does not allow shards');

function requireShards(ctx: ApiContext): void {
  if (ctx.state.version < V.SHARDS) throw new ShardsTooOld();
}

async function listShards(ctx: ApiContext): Promise<void> {
  requireShards(ctx);
  // get_all takes no arguments and, not wrapped by args.validate, fails in Python (a 500) on any:
  // refused here as every other controller refuses an unexpected argument.
  readQuery(ctx, []);
  const rows = await ctx.state.deps.db.knex('nodes').select('shard').count({ n: 'id' }).groupBy('shard') as
    Array<{ shard: string | null; n: number | string }>;
  const shards = rows.map((r) => ({ name: r.shard === null ? 'None' : r.shard, count: Number(r.n) }));
  shards.sort((a, b) => b.count - a.count);
  ctx.body = { shards };
}

export function shardsRouter(): Router<ApiState> {
  const router = new Router<ApiState>();
  router.get('/v1/shards', listShards);
  router.get('/v1/shards/:name', (ctx) => {
    requireShards(ctx);
    throw new ShardNotFound();
  });
  refuseOtherVerbs(router, '/v1/shards', ['get']);
  return router;
}
