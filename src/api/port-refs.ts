/**
 * The node and portgroup UUIDs a page of ports (or portgroups, volume records) shows, fetched with one
 * query per referenced table instead of one per row.
 */
import type { PortRecord } from '../db/models';
import { nodeUuidsById } from './node-lookup';
import type { ApiContext } from './state';
import type { PortRefs } from './views/port';

async function portgroupUuidsById(ctx: ApiContext, ids: number[]): Promise<Map<number, string>> {
  const unique = [...new Set(ids)];
  const out = new Map<number, string>();
  for (let i = 0; i < unique.length; i += 900) {
    const rows = await ctx.state.deps.db.knex('portgroups').select('id', 'uuid').whereIn('id', unique.slice(i, i + 900)) as
      Array<{ id: number; uuid: string }>;
    for (const row of rows) out.set(Number(row.id), row.uuid);
  }
  return out;
}

export async function nodeUuidsOf(ctx: ApiContext, records: { node_id: number | null }[]): Promise<Map<number, string>> {
  const ids = records.map((r) => r.node_id).filter((id): id is number => id !== null);
  return ids.length ? nodeUuidsById(ctx, ids) : new Map();
}

export async function portRefsOf(ctx: ApiContext, ports: PortRecord[]): Promise<(port: PortRecord) => PortRefs> {
  const nodes = await nodeUuidsOf(ctx, ports);
  const pgIds = ports.map((p) => p.portgroup_id).filter((id): id is number => id !== null);
  const groups = pgIds.length ? await portgroupUuidsById(ctx, pgIds) : new Map<number, string>();
  return (port) => ({
    nodeUuid: port.node_id !== null ? nodes.get(port.node_id) ?? null : null,
    portgroupUuid: port.portgroup_id !== null ? groups.get(port.portgroup_id) ?? null : null,
  });
}
