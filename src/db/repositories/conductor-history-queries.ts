/** node_history rows written by the conductor, and the trimming its periodic task does. */
import { randomUUID } from 'node:crypto';
import { encodeInsert } from '../codec';
import type { Database } from '../connection';

interface HistoryEntry {
  nodeId: number;
  conductor: string;
  event: string;
  eventType: string;
  severity: 'ERROR' | 'INFO';
  user?: string | null;
}

export async function insertHistory(db: Database, e: HistoryEntry): Promise<void> {
  await db.knex('node_history').insert(encodeInsert('node_history', {
    uuid: randomUUID(), node_id: e.nodeId, conductor: e.conductor, event: e.event, event_type: e.eventType,
    severity: e.severity, user: e.user ?? null, version: '1.0',
  }, db.dialect, new Date()));
}

/**
 * Keeps at most `maxEntries` newest rows per node, never deleting rows younger than
 * `minimumDays`, and removes at most `batch` rows per call (_manage_node_history).
 */
export async function trimHistory(db: Database, maxEntries: number, minimumDays: number, batch: number): Promise<number> {
  const counts = await db.knex('node_history').select('node_id').count({ n: '*' }).groupBy('node_id')
    .having(db.knex.raw('count(*) > ?', [maxEntries])) as Array<{ node_id: number; n: number | string }>;
  const youngest = new Date(Date.now() - minimumDays * 86400 * 1000);
  let removed = 0;
  for (const { node_id: nodeId, n } of counts) {
    if (removed >= batch) break;
    const excess = Math.min(Number(n) - maxEntries, batch - removed);
    const rows = await db.knex('node_history').where({ node_id: nodeId }).orderBy('id', 'asc').limit(excess)
      .select('id', 'created_at') as Array<{ id: number; created_at: unknown }>;
    const ids = rows.filter((r) => minimumDays <= 0 || new Date(String(r.created_at).replace(' ', 'T') + 'Z') < youngest)
      .map((r) => r.id);
    if (ids.length) removed += await db.knex('node_history').whereIn('id', ids).delete();
  }
  return removed;
}
