/** Portgroups; destroy refuses while ports still belong to the group (PortgroupNotEmpty). */
import type { Knex } from 'knex';
import type { Database } from '../connection';
import { DuplicateError, NotEmptyError } from '../errors';
import type { PortgroupRecord, Writable } from '../models';
import type { PageOptions } from './paginate';
import { defineResource } from './resource';

export interface PortgroupFilters {
  node_id?: number;
  address?: string;
  /** Portgroups of nodes whose owner or lessee is this project. */
  project?: string;
}

function duplicate(values: Record<string, unknown>) {
  return (columns: string[]) => {
    if (columns.includes('address')) {
      return new DuplicateError('PortgroupMACAlreadyExists',
        `A portgroup with MAC address ${values.address} already exists.`, columns);
    }
    if (columns.includes('name')) {
      return new DuplicateError('PortgroupDuplicateName', `A portgroup with name ${values.name} already exists.`, columns);
    }
    return new DuplicateError('PortgroupAlreadyExists', `A portgroup with UUID ${values.uuid} already exists.`, columns);
  };
}

function applyFilters(query: Knex.QueryBuilder, f: PortgroupFilters): void {
  if (f.node_id !== undefined) query.where('portgroups.node_id', f.node_id);
  if (f.address !== undefined) query.where('portgroups.address', f.address);
  if (f.project !== undefined) {
    const p = f.project;
    query.join('nodes', 'nodes.id', 'portgroups.node_id')
      .where((q) => { q.where('nodes.owner', p).orWhere('nodes.lessee', p); });
  }
}

const resource = defineResource<PortgroupRecord, PortgroupFilters>(
  { table: 'portgroups', noun: 'Portgroup', duplicate, hasName: true }, applyFilters);

export type PortgroupValues = Writable<PortgroupRecord>;

export const create = (db: Database, values: PortgroupValues): Promise<PortgroupRecord> => resource.create(db, values);
export const get = (db: Database, ident: number | string): Promise<PortgroupRecord> => resource.get(db, ident);
export async function getByAddress(db: Database, address: string): Promise<PortgroupRecord | null> {
  return resource.find(db, { address });
}
export const list = (db: Database, filters: PortgroupFilters = {}, page: PageOptions = {}): Promise<PortgroupRecord[]> =>
  resource.list(db, filters, page);
export const update = (db: Database, ident: number | string, values: PortgroupValues): Promise<PortgroupRecord> =>
  resource.update(db, ident, values);

export async function destroy(db: Database, ident: number | string): Promise<void> {
  await db.transaction(async (trx) => {
    const pg = await resource.get(db, ident, trx);
    const port = await trx('ports').where({ portgroup_id: pg.id }).first('id');
    if (port) {
      throw new NotEmptyError('PortgroupNotEmpty',
        `Cannot complete the requested action because portgroup ${pg.uuid} contains ports.`);
    }
    await trx('portgroups').where({ id: pg.id }).delete();
  });
}
