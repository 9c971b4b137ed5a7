/**
 * The node reservation that backs conductor task locks (Ironic's reserve_node/release_node): a
 * single conditional UPDATE, so of two racing conductors exactly one wins, on SQLite and MySQL alike.
 */
import { encodeDate } from '../../codec';
import type { Database } from '../../connection';
import { isNotFound, NodeLockedError, NodeNotLockedError, NotFoundError } from '../../errors';
import type { NodeRecord } from '../../models';
import { find, NodeIdent, nodeWhere } from './records';

/** Ironic's UPDATEs go through SQLAlchemy, whose onupdate stamps updated_at on lock changes too. */
function stamp(db: Database, reservation: string | null): Record<string, string | null> {
  return { reservation, updated_at: encodeDate(new Date(), db.dialect) };
}

async function currentReservation(db: Database, ident: NodeIdent): Promise<{ uuid: string; reservation: string | null }> {
  const row = await db.knex('nodes').where(nodeWhere(ident)).first('uuid', 'reservation') as
    { uuid: string; reservation: string | null } | undefined;
  if (!row) throw new NotFoundError('Node', ident);
  return row;
}

/**
 * Reserves the node for `host` and returns it; NodeLocked (with the holder) when another or the
 * same host holds it, NotFound when there is no such node.
 */
export async function reserve(db: Database, ident: NodeIdent, host: string): Promise<NodeRecord> {
  const won = await db.knex('nodes').where(nodeWhere(ident)).whereNull('reservation').update(stamp(db, host));
  if (won === 1) return find(db, ident);
  const now = await currentReservation(db, ident);
  // Released between our UPDATE and the read: still reported as held, so the caller retries.
  throw new NodeLockedError(now.uuid, now.reservation ?? host);
}

/** Releases `host`'s reservation; NodeNotLocked if free, NodeLocked if someone else holds it. */
export async function release(db: Database, ident: NodeIdent, host: string): Promise<void> {
  const done = await db.knex('nodes').where({ ...nodeWhere(ident), reservation: host }).update(stamp(db, null));
  if (done === 1) return;
  const now = await currentReservation(db, ident);
  if (now.reservation === null) throw new NodeNotLockedError(now.uuid, host);
  throw new NodeLockedError(now.uuid, now.reservation);
}

/** Whether a release failed only because the node is gone or not held by the caller. */
export function isReleaseRefused(err: unknown): boolean {
  return isNotFound(err, 'Node') || err instanceof NodeNotLockedError || err instanceof NodeLockedError;
}

/** Clears every reservation held by `host` (conductor start-up/shutdown); returns how many. */
export async function releaseAllFor(db: Database, host: string): Promise<number> {
  return db.knex('nodes').where({ reservation: host }).update({ reservation: null });
}

/** Ironic's clear_node_target_power_state: pending power operations of a dead/restarted host. */
export async function clearTargetPowerStateOf(db: Database, host: string, lastError: string): Promise<number> {
  return db.knex('nodes').where({ reservation: host }).whereNotNull('target_power_state')
    .update({ target_power_state: null, last_error: lastError });
}
