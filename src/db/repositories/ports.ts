/**
 * Ports. Filters may reach into the owning node (owner/project, shard, conductor group)
 * through one join; a unique MAC becomes MACAlreadyExists.
 */
import type { Knex } from 'knex';
import type { Database } from '../connection';
import { DuplicateError } from '../errors';
import type { PortRecord, Writable } from '../models';
import type { PageOptions } from './paginate';
import { defineResource } from './resource';

export interface PortFilters {
  node_id?: number;
  portgroup_id?: number;
  address?: string;
  /** Ports of nodes owned by this project. */
  owner?: string;
  /** Ports of nodes whose owner or lessee is this project. */
  project?: string;
  /** Ports of nodes in these shards. */
  shard_in?: string[];
  /** Ports of nodes in this conductor group. */
  conductor_group?: string;
  physical_network?: string;
}

function duplicate(values: Record<string, unknown>) {
  return (columns: string[]) => {
    if (columns.includes('address')) {
      return new DuplicateError('MACAlreadyExists', `A port with MAC address ${values.address} already exists.`, columns);
    }
    if (columns.includes('name')) {
      return new DuplicateError('PortDuplicateName', `A port with name ${values.name} already exists.`, columns);
    }
    return new DuplicateError('PortAlreadyExists', `A port with UUID ${values.uuid} already exists.`, columns);
  };
}

function needsNodeJoin(f: PortFilters): boolean {
  return f.owner !== undefined || f.project !== undefined || f.shard_in !== undefined || f.conductor_group !== undefined;
}

function applyFilters(query: Knex.QueryBuilder, f: PortFilters): void {
  if (f.node_id !== undefined) query.where('ports.node_id', f.node_id);
  if (f.portgroup_id !== undefined) query.where('ports.portgroup_id', f.portgroup_id);
  if (f.address !== undefined) query.where('ports.address', f.address);
  if (f.physical_network !== undefined) query.where('ports.physical_network', f.physical_network);
  if (!needsNodeJoin(f)) return;
  query.join('nodes', 'nodes.id', 'ports.node_id');
  if (f.owner !== undefined) query.where('nodes.owner', f.owner);
  if (f.project !== undefined) {
    const p = f.project;
    query.where((q) => { q.where('nodes.owner', p).orWhere('nodes.lessee', p); });
  }
  if (f.shard_in !== undefined) query.whereIn('nodes.shard', f.shard_in);
  if (f.conductor_group !== undefined) query.where('nodes.conductor_group', f.conductor_group);
}

const resource = defineResource<PortRecord, PortFilters>(
  { table: 'ports', noun: 'Port', duplicate, hasName: true }, applyFilters);

export type PortValues = Writable<PortRecord>;

export const create = (db: Database, values: PortValues): Promise<PortRecord> => resource.create(db, values);
/** By id, uuid or name. */
export const get = (db: Database, ident: number | string): Promise<PortRecord> => resource.get(db, ident);
export async function getByAddress(db: Database, address: string, filters: PortFilters = {}): Promise<PortRecord | null> {
  const rows = await resource.list(db, { ...filters, address }, { limit: 1 });
  return rows[0] ?? null;
}
export const list = (db: Database, filters: PortFilters = {}, page: PageOptions = {}): Promise<PortRecord[]> =>
  resource.list(db, filters, page);
export const update = (db: Database, ident: number | string, values: PortValues): Promise<PortRecord> =>
  resource.update(db, ident, values);
export const destroy = (db: Database, ident: number | string): Promise<void> => resource.destroy(db, ident);
