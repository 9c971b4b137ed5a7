/** What the notification call sites of the API pass along from a request. */
import type { ApiNotifyContext } from '../notifications/events';
import type { ApiContext } from './state';

export function apiNotifyContext(ctx: ApiContext): ApiNotifyContext {
  return { requestId: ctx.state.requestId, db: ctx.state.deps.db };
}

/** The uuid of a node or portgroup a resource points at, for the `node_uuid`/`portgroup_uuid` payload fields. */
export async function uuidOfRow(ctx: ApiContext, table: 'nodes' | 'portgroups', id: number | null): Promise<string | null> {
  if (id === null) return null;
  const row = await ctx.state.deps.db.knex(table).select('uuid').where({ id }).first() as { uuid: string } | undefined;
  return row?.uuid ?? null;
}
