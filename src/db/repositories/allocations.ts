/**
 * Allocations. Linking an allocation to a node also sets the node's allocation_id and
 * instance_uuid (Ironic's update_allocation), and destroying one unlinks its node, each in one
 * transaction.
 */
import type { Knex } from 'knex';
import type { Database } from '../connection';
import { DuplicateError } from '../errors';
import type { AllocationRecord, Writable } from '../models';
import type { PageOptions } from './paginate';
import { defineResource } from './resource';
import { updateWhere } from './table-access';

export interface AllocationFilters {
  state?: string;
  resource_class?: string;
  node_id?: number;
  conductor_affinity?: number;
  owner?: string;
}

function duplicate(values: Record<string, unknown>) {
  return (columns: string[]) => {
    if (columns.includes('name')) {
      return new DuplicateError('AllocationDuplicateName', `An allocation with name ${values.name} already exists.`, columns);
    }
    return new DuplicateError('AllocationAlreadyExists', `An allocation with UUID ${values.uuid} already exists.`, columns);
  };
}

function applyFilters(query: Knex.QueryBuilder, f: AllocationFilters): void {
  for (const key of ['state', 'resource_class', 'node_id', 'conductor_affinity', 'owner'] as const) {
    const value = f[key];
    if (value !== undefined) query.where(`allocations.${key}`, value);
  }
}

const resource = defineResource<AllocationRecord, AllocationFilters>(
  { table: 'allocations', noun: 'Allocation', duplicate, hasName: true }, applyFilters);

export type AllocationValues = Writable<AllocationRecord>;

export const create = (db: Database, values: AllocationValues): Promise<AllocationRecord> =>
  resource.create(db, values);
/** By id, uuid or name. */
export const get = (db: Database, ident: number | string): Promise<AllocationRecord> => resource.get(db, ident);
export const list = (db: Database, filters: AllocationFilters = {}, page: PageOptions = {}):
  Promise<AllocationRecord[]> => resource.list(db, filters, page);

/**
 * Updates an allocation; when `node_id` changes to a node, that node gets allocation_id and
 * instance_uuid = allocation uuid, unless it is already associated with another instance
 * (NodeAssociated) — and nothing is written then.
 */
export async function update(db: Database, ident: number | string, values: AllocationValues,
  updateNode = true): Promise<AllocationRecord> {
  const id = await db.transaction(async (trx) => {
    const current = await resource.get(db, ident, trx);
    if (updateNode && values.node_id !== undefined && values.node_id !== null && values.node_id !== current.node_id) {
      const node = await trx('nodes').where({ id: values.node_id }).forUpdate().first('uuid', 'instance_uuid') as
        { uuid: string; instance_uuid: string | null } | undefined;
      if (node && node.instance_uuid && node.instance_uuid !== current.uuid) {
        throw new DuplicateError('NodeAssociated',
          `Node ${node.uuid} is associated with instance ${node.instance_uuid}.`, ['instance_uuid']);
      }
      await updateWhere(trx, db.dialect, 'nodes', { id: values.node_id },
        { allocation_id: current.id, instance_uuid: current.uuid });
    }
    await updateWhere(trx, db.dialect, 'allocations', { id: current.id }, values, duplicate(values));
    return current.id;
  });
  return resource.get(db, id);
}

export async function destroy(db: Database, ident: number | string): Promise<void> {
  await db.transaction(async (trx) => {
    const current = await resource.get(db, ident, trx);
    await updateWhere(trx, db.dialect, 'nodes', { allocation_id: current.id }, { allocation_id: null, instance_uuid: null });
    await trx('allocations').where({ id: current.id }).delete();
  });
}
