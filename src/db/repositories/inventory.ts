/** Hardware inventory saved by inspection (node_inventory), one row per node. */
import type { Database } from '../connection';
import { NotFoundError } from '../errors';
import type { NodeInventoryRecord } from '../models';
import { insertRow, selectMany } from './table-access';

export async function create(db: Database, nodeId: number, inventoryData: Record<string, unknown>,
  pluginData: Record<string, unknown> = {}, version: string | null = null): Promise<NodeInventoryRecord> {
  await insertRow(db.knex, db.dialect, 'node_inventory',
    { node_id: nodeId, inventory_data: inventoryData, plugin_data: pluginData, version });
  return getByNodeId(db, nodeId);
}

/** The newest inventory of the node; NodeInventoryNotFound when none. */
export async function getByNodeId(db: Database, nodeId: number): Promise<NodeInventoryRecord> {
  const rows = await selectMany<NodeInventoryRecord>(db.knex, 'node_inventory', { node_id: nodeId }, 'id');
  if (rows.length === 0) throw new NotFoundError('NodeInventory', nodeId);
  return rows[rows.length - 1];
}

export async function destroyByNodeId(db: Database, nodeId: number): Promise<void> {
  const n = await db.knex('node_inventory').where({ node_id: nodeId }).delete();
  if (n === 0) throw new NotFoundError('NodeInventory', nodeId);
}
