/** Node history events (node_history), newest-last by id. */
import type { Database } from '../connection';
import { DuplicateError, NotFoundError } from '../errors';
import type { NodeHistoryRecord, Writable } from '../models';
import type { PageOptions } from './paginate';
import { defineResource } from './resource';

export interface NodeHistoryFilters {
  node_id?: number;
  conductor?: string;
}

function duplicate(values: Record<string, unknown>) {
  return (columns: string[]) =>
    new DuplicateError('NodeHistoryAlreadyExists', `A node history record with UUID ${values.uuid} already exists.`, columns);
}

const resource = defineResource<NodeHistoryRecord, NodeHistoryFilters>(
  { table: 'node_history', noun: 'NodeHistory', duplicate }, (query, f) => {
    if (f.node_id !== undefined) query.where('node_history.node_id', f.node_id);
    if (f.conductor !== undefined) query.where('node_history.conductor', f.conductor);
  });

export type NodeHistoryValues = Writable<NodeHistoryRecord>;

export const create = (db: Database, values: NodeHistoryValues): Promise<NodeHistoryRecord> =>
  resource.create(db, values);
export const get = (db: Database, ident: number | string): Promise<NodeHistoryRecord> => resource.get(db, ident);
export const list = (db: Database, filters: NodeHistoryFilters = {}, page: PageOptions = {}):
  Promise<NodeHistoryRecord[]> => resource.list(db, filters, page);
export const destroy = (db: Database, ident: number | string): Promise<void> => resource.destroy(db, ident);

/** Deletes all but the newest `keep` events of a node; returns how many went. */
export async function prune(db: Database, nodeId: number, keep: number): Promise<number> {
  const rows = await db.knex('node_history').where({ node_id: nodeId }).orderBy('id', 'desc').offset(keep).select('id') as
    Array<{ id: number }>;
  if (rows.length === 0) return 0;
  return db.knex('node_history').whereIn('id', rows.map((r) => r.id)).delete();
}

export async function destroyForNode(db: Database, nodeId: number): Promise<void> {
  const node = await db.knex('nodes').where({ id: nodeId }).first('id');
  if (!node) throw new NotFoundError('Node', nodeId);
  await db.knex('node_history').where({ node_id: nodeId }).delete();
}
