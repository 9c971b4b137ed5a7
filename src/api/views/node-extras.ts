/**
 * The values a node view shows that do not live in the node row: chassis uuid, allocation uuid and
 * the conductor host. Loaded for a whole page at once (one query per kind), never per row.
 */
import type { NodeRecord } from '../../db/models';
import type { ApiContext } from '../state';
import { V } from '../versions';
import type { NodeViewExtras } from './node';

const CHUNK = 900;

async function uuidsById(ctx: ApiContext, table: 'chassis' | 'allocations', ids: number[]): Promise<Map<number, string>> {
  const unique = [...new Set(ids)];
  const out = new Map<number, string>();
  for (let i = 0; i < unique.length; i += CHUNK) {
    const rows = await ctx.state.deps.db.knex(table).select('id', 'uuid').whereIn('id', unique.slice(i, i + CHUNK)) as
      Array<{ id: number | string; uuid: string }>;
    for (const row of rows) out.set(Number(row.id), row.uuid);
  }
  return out;
}

/** The conductor host in an RPC topic ("ironic.conductor_manager.<host>"). */
export function hostOfTopic(topic: string): string {
  return topic.replace(/^ironic\.conductor_manager\./, '');
}

/** What extras are computed from: a decoded node, or the few columns a row-written list reads. */
export type NodeRef = Pick<NodeRecord, 'id' | 'uuid' | 'chassis_id' | 'allocation_id' | 'driver' | 'conductor_group'>;

/** Extras for each node (by node id); only the kinds `fields` asks for at this version are looked up. */
export async function loadNodeExtras(ctx: ApiContext, nodes: readonly NodeRef[], fields: readonly string[] | null):
  Promise<Map<number, NodeViewExtras>> {
  const version = ctx.state.version;
  const wants = (f: string): boolean => fields === null || fields.includes(f);
  const chassisIds = wants('chassis_uuid') ? nodes.map((n) => n.chassis_id).filter((id): id is number => id !== null) : [];
  const allocIds = version >= V.ALLOCATIONS && wants('allocation_uuid')
    ? nodes.map((n) => n.allocation_id).filter((id): id is number => id !== null) : [];
  const chassis = chassisIds.length ? await uuidsById(ctx, 'chassis', chassisIds) : new Map<number, string>();
  const allocations = allocIds.length ? await uuidsById(ctx, 'allocations', allocIds) : new Map<number, string>();
  const hosts = version >= V.CONDUCTORS && wants('conductor') && nodes.length
    ? await ctx.state.deps.conductor.conductorHostsFor(nodes) : null;
  const out = new Map<number, NodeViewExtras>();
  nodes.forEach((n, i) => {
    out.set(n.id, {
      chassisUuid: n.chassis_id !== null ? chassis.get(n.chassis_id) ?? null : null,
      allocationUuid: n.allocation_id !== null ? allocations.get(n.allocation_id) ?? null : null,
      conductor: hosts ? hosts[i] : null,
    });
  });
  return out;
}
