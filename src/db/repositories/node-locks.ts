/**
 * The node reservation that backs conductor task locks: a single conditional UPDATE, so of two
 * racing conductors exactly one wins, on SQLite and MySQL alike.
 */
import { encodeDate } from '../codec';
import type { Database } from '../connection';
import { NodeLockedError, NodeNotLockedError, NotFoundError } from '../errors';
import type { NodeWithRelations } from '../models';
import { get, NodeIdent, nodeWhere } from './nodes';

/** Ironic's UPDATEs go through SQLAlchemy, whose onupdate stamps updated_at on lock changes too. */
function stamp(db: Database, reservation: string | null): Record<string, string | null> {
  return { reservation, updated_at: encodeDate(new Date(), db.dialect) };
}

async function currentReservation(db: Database, ident: NodeIdent): Promise<{ id: number; uuid: string; reservation: string | null }> {
  const row = await db.knex('nodes').where(nodeWhere(ident)).first('id', 'uuid', 'reservation') as
    { id: number; uuid: string; reservation: string | null } | undefined;
  if (!row) throw new NotFoundError('Node', ident);
  return { id: Number(row.id), uuid: row.uuid, reservation: row.reservation };
}

/** Reserves the node for `host`; NodeLocked when another (or the same) host holds it. */
export async function reserve(db: Database, ident: NodeIdent, host: string): Promise<NodeWithRelations> {
  const node = await currentReservation(db, ident);
  if (node.reservation) throw new NodeLockedError(node.uuid, node.reservation);
  const won = await db.knex('nodes').where({ id: node.id }).whereNull('reservation').update(stamp(db, host));
  if (won !== 1) {
    const now = await currentReservation(db, node.id);
    throw new NodeLockedError(node.uuid, now.reservation ?? host);
  }
  return get(db, node.id);
}

/** Releases `host`'s reservation; NodeNotLocked if free, NodeLocked if someone else holds it. */
export async function release(db: Database, ident: NodeIdent, host: string): Promise<void> {
  const node = await currentReservation(db, ident);
  const done = await db.knex('nodes').where({ id: node.id, reservation: host }).update(stamp(db, null));
  if (done === 1) return;
  const now = await currentReservation(db, node.id);
  if (now.reservation === null) throw new NodeNotLockedError(node.uuid, host);
  throw new NodeLockedError(node.uuid, now.reservation);
}

/** Clears every reservation held by `host` (conductor start-up/shutdown); returns how many. */
export async function releaseAllFor(db: Database, host: string): Promise<number> {
  return db.knex('nodes').where({ reservation: host }).update(stamp(db, null));
}
