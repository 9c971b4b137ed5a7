/**
 * Resolves foreign-key ids to UUIDs for a whole page at once (node_id -> node uuid,
 * chassis_id -> chassis uuid, portgroup_id -> portgroup uuid, allocation_id -> allocation uuid),
 * so API views never look them up row by row.
 */
import type { Database } from '../connection';

type UuidTable = 'nodes' | 'chassis' | 'portgroups' | 'allocations' | 'deploy_templates';

const CHUNK = 5000;

/** Map id -> uuid for the given ids (nulls and duplicates ignored). */
export async function uuidsById(db: Database, table: UuidTable,
  ids: ReadonlyArray<number | null | undefined>): Promise<Map<number, string>> {
  const unique = [...new Set(ids.filter((id): id is number => typeof id === 'number'))];
  const out = new Map<number, string>();
  for (let i = 0; i < unique.length; i += CHUNK) {
    const rows = await db.knex(table).whereIn('id', unique.slice(i, i + CHUNK)).select('id', 'uuid') as
      Array<{ id: number; uuid: string }>;
    for (const r of rows) out.set(Number(r.id), r.uuid);
  }
  return out;
}

/** Map uuid -> id, for turning API filters such as node_uuid into the ids repositories filter on. */
export async function idsByUuid(db: Database, table: UuidTable,
  uuids: ReadonlyArray<string>): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const unique = [...new Set(uuids)];
  for (let i = 0; i < unique.length; i += CHUNK) {
    const rows = await db.knex(table).whereIn('uuid', unique.slice(i, i + CHUNK)).select('id', 'uuid') as
      Array<{ id: number; uuid: string }>;
    for (const r of rows) out.set(r.uuid, Number(r.id));
  }
  return out;
}
