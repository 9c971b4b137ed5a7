/**
 * Node reads and writes the conductor needs: the atomic reservation that backs exclusive locks,
 * field updates from a task, and the filtered scans periodic tasks run. Kept apart from the API's
 * node repository so the conductor's locking rules live in one place.
 */
import { decodeRow, encodeDate, encodeInsert, encodeRow } from '../codec';
import type { Database } from '../connection';
import type { NodeRecord, NodeTraitRecord } from '../models';
import { duplicateColumns } from '../duplicate';
import { NodeAlreadyExists, DuplicateName, InstanceAssociated, NodeNotFound } from '../../common/errors';
import { Executor, selectMany, selectOne } from './table-access';

const UUID_RE = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/** Finds a node by id, UUID or name (Ironic's get_node_by_ident rules). */
export async function findNode(db: Database, ident: string | number): Promise<NodeRecord> {
  let where: Record<string, unknown>;
  if (typeof ident === 'number') where = { id: ident };
  else if (UUID_RE.test(ident)) where = { uuid: ident };
  else where = { name: ident };
  const node = await selectOne<NodeRecord>(db.knex, 'nodes', where);
  if (!node) throw new NodeNotFound({ node: ident });
  return node;
}

export async function nodeTraits(db: Database, nodeId: number): Promise<string[]> {
  const rows = await selectMany<NodeTraitRecord>(db.knex, 'node_traits', { node_id: nodeId }, 'trait');
  return rows.map((r) => r.trait);
}

/** Sets exactly `changes` on the node row; updated_at is stamped. */
export async function writeNodeFields(db: Database, nodeId: number, changes: Partial<NodeRecord>): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  const row = encodeRow('nodes', { ...changes, updated_at: new Date() }, db.dialect);
  try {
    await db.knex('nodes').where({ id: nodeId }).update(row);
  } catch (err) {
    const cols = duplicateColumns(err);
    throw (cols ? duplicateToError(cols, changes) : null) ?? err;
  }
}

function duplicateToError(columns: string[], values: Partial<NodeRecord>): Error | null {
  if (columns.includes('name')) return new DuplicateName({ name: values.name });
  if (columns.includes('instance_uuid')) {
    return new InstanceAssociated({ instance_uuid: values.instance_uuid, node: values.uuid });
  }
  if (columns.includes('uuid')) return new NodeAlreadyExists({ uuid: values.uuid });
  return null;
}

/**
 * Atomically takes the node's reservation for `host`. Returns null on success, or the current
 * holder when someone else holds it. Throws NodeNotFound when the node is gone.
 */
/** Ironic's lock UPDATEs go through SQLAlchemy, whose onupdate stamps updated_at on them too. */
function lockChange(db: Database, reservation: string | null): Record<string, string | null> {
  return { reservation, updated_at: encodeDate(new Date(), db.dialect) };
}

export async function reserveNode(db: Database, nodeId: number, host: string): Promise<string | null> {
  const count = await db.knex('nodes').where({ id: nodeId }).whereNull('reservation').update(lockChange(db, host));
  if (count === 1) return null;
  const row = await db.knex('nodes').where({ id: nodeId }).first('reservation') as { reservation: string | null } | undefined;
  if (!row) throw new NodeNotFound({ node: nodeId });
  // Released between our UPDATE and SELECT: report it as held so the caller retries.
  return row.reservation ?? host;
}

/** Drops `host`'s reservation; returns false when the node was not reserved by `host`. */
export async function releaseNode(db: Database, nodeId: number, host: string): Promise<boolean> {
  const count = await db.knex('nodes').where({ id: nodeId, reservation: host }).update(lockChange(db, null));
  return count === 1;
}

export async function clearReservationsOf(db: Database, host: string): Promise<number> {
  return db.knex('nodes').where({ reservation: host }).update({ reservation: null });
}

/** Ironic's clear_node_target_power_state: pending power operations of a dead/restarted host. */
export async function clearTargetPowerStateOf(db: Database, host: string, lastError: string): Promise<number> {
  return db.knex('nodes').where({ reservation: host }).whereNotNull('target_power_state')
    .update({ target_power_state: null, last_error: lastError });
}

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
}

type QueryBuilder = ReturnType<Database['knex']>;

function applyScanFilter(db: Database, q: QueryBuilder, filter: NodeScanFilter): QueryBuilder {
  if (filter.provisionState) q.whereIn('provision_state', filter.provisionState);
  if (filter.maintenance !== undefined) q.where('maintenance', filter.maintenance ? 1 : 0);
  if (filter.reserved === false) q.whereNull('reservation');
  if (filter.reserved === true) q.whereNotNull('reservation');
  if (filter.reservedByAnyOf) q.whereIn('reservation', filter.reservedByAnyOf);
  if (filter.fault !== undefined) q.where('fault', filter.fault);
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

/** Inserts a node row and its traits in one transaction; returns the stored row. */
export async function insertNode(db: Database, values: Partial<NodeRecord>, traits: string[] = []): Promise<NodeRecord> {
  const now = new Date();
  const insert = async (ex: Executor): Promise<void> => {
    let id: number;
    try {
      const result = await ex('nodes').insert(encodeInsert('nodes', values as Record<string, unknown>, db.dialect, now)) as unknown[];
      id = Number(result[0]);
    } catch (err) {
      const cols = duplicateColumns(err);
      const typed = cols ? duplicateToError(cols, values) : null;
      throw typed ?? err;
    }
    for (const trait of traits) {
      await ex('node_traits').insert(encodeInsert('node_traits', { node_id: id, trait, version: '1.0' }, db.dialect, now));
    }
  };
  // One row needs no transaction of its own; with traits the rows go in together or not at all.
  if (traits.length === 0) await insert(db.knex);
  else await db.transaction(insert);
  return findNode(db, String(values.uuid));
}
