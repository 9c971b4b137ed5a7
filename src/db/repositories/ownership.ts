/**
 * The owner and lessee a policy check needs (Ironic's `node.owner` / `node.lessee` targets),
 * read without loading whole rows.
 */
import type { Database } from '../connection';
import { nodeWhere } from './nodes';

export interface NodeOwnership {
  owner: string | null;
  lessee: string | null;
}

type OwnershipRow = { owner: string | null; lessee: string | null } | undefined;

/** The node named by a uuid or name; null when there is none. */
export async function nodeOwnership(db: Database, ident: string): Promise<NodeOwnership | null> {
  const row = await db.knex('nodes').select('owner', 'lessee').where(nodeWhere(ident)).first() as OwnershipRow;
  return row ? { owner: row.owner ?? null, lessee: row.lessee ?? null } : null;
}

/**
 * The node a port, portgroup or volume connector/target belongs to, found by the child's uuid
 * (or name for portgroups); `found` is false when the child does not exist.
 */
/** Ports and portgroups are also found by name, ports by integer id too (Port.get of Ironic 2025.1). */
function childIdentColumn(table: string, ident: string): string {
  if (table !== 'ports' && table !== 'portgroups') return 'uuid';
  if (/^[0-9a-f-]{32,36}$/i.test(ident)) return 'uuid';
  if (table === 'ports' && /^-?(0|[1-9]\d*)$/.test(ident)) return 'id';
  return 'name';
}

export async function childNodeOwnership(db: Database, table: 'ports' | 'portgroups' | 'volume_connectors' | 'volume_targets',
  ident: string): Promise<{ found: boolean; node: NodeOwnership }> {
  const column = childIdentColumn(table, ident);
  const row = await db.knex(`${table} as c`).leftJoin('nodes as n', 'n.id', 'c.node_id')
    .select('n.owner as owner', 'n.lessee as lessee').where(`c.${column}`, ident).first() as OwnershipRow;
  return row ? { found: true, node: { owner: row.owner ?? null, lessee: row.lessee ?? null } } : { found: false, node: { owner: null, lessee: null } };
}

/** The owner of an allocation by uuid or name; null when there is none. */
export async function allocationOwner(db: Database, ident: string): Promise<{ owner: string | null } | null> {
  const column = /^[0-9a-f-]{32,36}$/i.test(ident) ? 'uuid' : 'name';
  const row = await db.knex('allocations').select('owner').where(column, ident).first() as { owner: string | null } | undefined;
  return row ? { owner: row.owner ?? null } : null;
}
