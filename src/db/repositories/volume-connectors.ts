/** Volume connectors; (type, connector_id) is unique across all nodes. */
import type { Knex } from 'knex';
import type { Database } from '../connection';
import { DuplicateError } from '../errors';
import type { VolumeConnectorRecord, Writable } from '../models';
import type { PageOptions } from './paginate';
import { defineResource } from './resource';

export interface VolumeConnectorFilters {
  node_id?: number;
  /** Connectors of nodes whose owner or lessee is this project. */
  project?: string;
}

function duplicate(values: Record<string, unknown>) {
  return (columns: string[]) => {
    if (columns.includes('connector_id') || columns.includes('type')) {
      return new DuplicateError('VolumeConnectorTypeAndIdAlreadyExists',
        `A volume connector with type ${values.type} and connector ID ${values.connector_id} already exists.`, columns);
    }
    return new DuplicateError('VolumeConnectorAlreadyExists',
      `A volume connector with UUID ${values.uuid} already exists.`, columns);
  };
}

function applyFilters(query: Knex.QueryBuilder, f: VolumeConnectorFilters): void {
  if (f.node_id !== undefined) query.where('volume_connectors.node_id', f.node_id);
  if (f.project !== undefined) {
    const p = f.project;
    query.join('nodes', 'nodes.id', 'volume_connectors.node_id')
      .where((q) => { q.where('nodes.owner', p).orWhere('nodes.lessee', p); });
  }
}

const resource = defineResource<VolumeConnectorRecord, VolumeConnectorFilters>(
  { table: 'volume_connectors', noun: 'VolumeConnector', duplicate }, applyFilters);

export type VolumeConnectorValues = Writable<VolumeConnectorRecord>;

export const create = (db: Database, values: VolumeConnectorValues): Promise<VolumeConnectorRecord> =>
  resource.create(db, values);
export const get = (db: Database, ident: number | string): Promise<VolumeConnectorRecord> => resource.get(db, ident);
export const list = (db: Database, filters: VolumeConnectorFilters = {}, page: PageOptions = {}):
  Promise<VolumeConnectorRecord[]> => resource.list(db, filters, page);
export const update = (db: Database, ident: number | string, values: VolumeConnectorValues):
  Promise<VolumeConnectorRecord> => resource.update(db, ident, values);
export const destroy = (db: Database, ident: number | string): Promise<void> => resource.destroy(db, ident);
