/** Volume targets; (node_id, boot_index) is unique. */
import type { Knex } from 'knex';
import type { Database } from '../connection';
import { DuplicateError } from '../errors';
import type { VolumeTargetRecord, Writable } from '../models';
import type { PageOptions } from './paginate';
import { defineResource } from './resource';

export interface VolumeTargetFilters {
  node_id?: number;
  volume_id?: string;
  /** Targets of nodes whose owner or lessee is this project. */
  project?: string;
}

function duplicate(values: Record<string, unknown>) {
  return (columns: string[]) => {
    if (columns.includes('boot_index')) {
      return new DuplicateError('VolumeTargetBootIndexAlreadyExists',
        `A volume target with boot index '${values.boot_index}' for the same node already exists.`, columns);
    }
    return new DuplicateError('VolumeTargetAlreadyExists',
      `A volume target with UUID ${values.uuid} already exists.`, columns);
  };
}

function applyFilters(query: Knex.QueryBuilder, f: VolumeTargetFilters): void {
  if (f.node_id !== undefined) query.where('volume_targets.node_id', f.node_id);
  if (f.volume_id !== undefined) query.where('volume_targets.volume_id', f.volume_id);
  if (f.project !== undefined) {
    const p = f.project;
    query.join('nodes', 'nodes.id', 'volume_targets.node_id')
      .where((q) => { q.where('nodes.owner', p).orWhere('nodes.lessee', p); });
  }
}

const resource = defineResource<VolumeTargetRecord, VolumeTargetFilters>(
  { table: 'volume_targets', noun: 'VolumeTarget', duplicate }, applyFilters);

export type VolumeTargetValues = Writable<VolumeTargetRecord>;

export const create = (db: Database, values: VolumeTargetValues): Promise<VolumeTargetRecord> =>
  resource.create(db, values);
export const get = (db: Database, ident: number | string): Promise<VolumeTargetRecord> => resource.get(db, ident);
export const list = (db: Database, filters: VolumeTargetFilters = {}, page: PageOptions = {}):
  Promise<VolumeTargetRecord[]> => resource.list(db, filters, page);
export const update = (db: Database, ident: number | string, values: VolumeTargetValues):
  Promise<VolumeTargetRecord> => resource.update(db, ident, values);
export const destroy = (db: Database, ident: number | string): Promise<void> => resource.destroy(db, ident);
