/**
 * The filtered node scans periodic tasks run: whole rows, or the few columns a task decides on
 * before it locks a node, read in batches.
 */
import { decodeRow, encodeInsert } from '../../codec';
import type { Database } from '../../connection';
import type { NodeRecord } from '../../models';

export interface NodeScanFilter {
  provisionState?: string[];
  maintenance?: boolean;
  reserved?: boolean;
  reservedByAnyOf?: string[];
  /** provision_updated_at at least this many seconds ago. */
  provisionedBeforeSeconds?: number;
  fault?: string;
  conductorGroup?: string;
  uuids?: string[];
  inspectionStartedBeforeSeconds?: number;
  consoleEnabled?: boolean;
}

type QueryBuilder = ReturnType<Database['knex']>;

function applyScanFilter(db: Database, q: QueryBuilder, filter: NodeScanFilter): QueryBuilder {
  if (filter.provisionState) q.whereIn('provision_state', filter.provisionState);
  if (filter.maintenance !== undefined) q.where('maintenance', filter.maintenance ? 1 : 0);
  if (filter.reserved === false) q.whereNull('reservation');
  if (filter.reserved === true) q.whereNotNull('reservation');
  if (filter.reservedByAnyOf) q.whereIn('reservation', filter.reservedByAnyOf);
  if (filter.fault !== undefined) q.where('fault', filter.fault);
  if (filter.consoleEnabled !== undefined) q.where('console_enabled', filter.consoleEnabled ? 1 : 0);
  if (filter.uuids) q.whereIn('uuid', filter.uuids);
  if (filter.conductorGroup !== undefined) q.where('conductor_group', filter.conductorGroup);
  if (filter.provisionedBeforeSeconds !== undefined) {
    const limit = new Date(Date.now() - filter.provisionedBeforeSeconds * 1000);
    q.where('provision_updated_at', '<', encodeInsertDate(db, limit));
  }
  if (filter.inspectionStartedBeforeSeconds !== undefined) {
    const limit = new Date(Date.now() - filter.inspectionStartedBeforeSeconds * 1000);
    q.where('inspection_started_at', '<', encodeInsertDate(db, limit));
  }
  return q;
}

/** Nodes matching the filter, oldest provision_updated_at first. */
export async function scanNodes(db: Database, filter: NodeScanFilter): Promise<NodeRecord[]> {
  const q = applyScanFilter(db, db.knex('nodes'), filter);
  const rows = await q.orderBy([{ column: 'provision_updated_at', order: 'asc' }, { column: 'id', order: 'asc' }]) as
    Array<Record<string, unknown>>;
  return rows.map((r) => decodeRow<NodeRecord>('nodes', r));
}

/** What a periodic task decides on before it locks a node (the task then reloads the whole row). */
export type NodeSummary = Pick<NodeRecord, 'id' | 'uuid' | 'driver' | 'conductor_group' | 'reservation' |
  'target_power_state' | 'provision_state' | 'maintenance' | 'fault'>;

const SUMMARY_COLUMNS = ['id', 'uuid', 'driver', 'conductor_group', 'reservation', 'target_power_state',
  'provision_state', 'maintenance', 'fault'];

function decodeSummary(r: Record<string, unknown>): NodeSummary {
  const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
  return {
    id: Number(r.id), uuid: String(r.uuid), driver: String(r.driver), conductor_group: String(r.conductor_group ?? ''),
    reservation: str(r.reservation), target_power_state: str(r.target_power_state),
    provision_state: str(r.provision_state), maintenance: Boolean(Number(r.maintenance)), fault: str(r.fault),
  };
}

/**
 * Summaries of the matching nodes in id order, read a batch at a time with a turn of the event loop
 * between batches: with SQLite each query runs synchronously, and one 10,000-row read of every
 * column held API requests for a noticeable fraction of a second.
 */
export async function scanNodeSummaries(db: Database, filter: NodeScanFilter, batch = 1000,
  between: () => Promise<void> = async () => {}): Promise<NodeSummary[]> {
  const out: NodeSummary[] = [];
  let lastId = 0;
  for (;;) {
    const q = applyScanFilter(db, db.knex('nodes').select(SUMMARY_COLUMNS).where('id', '>', lastId), filter);
    const rows = await q.orderBy('id', 'asc').limit(batch) as Array<Record<string, unknown>>;
    for (const r of rows) out.push(decodeSummary(r));
    if (rows.length < batch) return out;
    lastId = Number(rows[rows.length - 1].id);
    await between();
  }
}

function encodeInsertDate(db: Database, date: Date): string {
  const row = encodeInsert('node_history', { created_at: date }, db.dialect, date);
  return String(row.created_at);
}

/**
 * get_child_node_ids_by_parent_uuid: the ids of the nodes whose parent_node is this UUID, by id;
 * `excludeDedicatedPower` leaves out those whose driver_info says has_dedicated_power_supply.
 */
export async function childNodeIds(db: Database, parentUuid: string, excludeDedicatedPower: boolean): Promise<number[]> {
  const rows = await db.knex('nodes').select('id', 'driver_info').where({ parent_node: parentUuid }).orderBy('id') as
    Array<Record<string, unknown>>;
  return rows.map((r) => decodeRow<Pick<NodeRecord, 'id' | 'driver_info'>>('nodes', r))
    .filter((n) => !(excludeDedicatedPower && (n.driver_info ?? {}).has_dedicated_power_supply))
    .map((n) => n.id);
}

/**
 * The child nodes a step runs on (Node.list with parent_node and, when given, uuid_in): UUIDs by id.
 */
export async function childNodeUuids(db: Database, parentUuid: string, only: readonly string[] | null): Promise<string[]> {
  const query = db.knex('nodes').select('uuid').where({ parent_node: parentUuid }).orderBy('id');
  if (only !== null) void query.whereIn('uuid', [...only]);
  return ((await query) as Array<{ uuid: string }>).map((r) => r.uuid);
}
