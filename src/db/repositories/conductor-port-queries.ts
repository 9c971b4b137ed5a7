/** Port and portgroup rows as the conductor creates, changes and deletes them under a node lock. */
import { randomUUID } from 'node:crypto';
import { decodeRow, encodeInsert, encodeRow } from '../codec';
import type { Database } from '../connection';
import type { PortRecord, PortgroupRecord } from '../models';
import { duplicateColumns } from '../duplicate';
import {
  MACAlreadyExists, PortAlreadyExists, PortDuplicateName, PortNotFound, PortgroupAlreadyExists,
  PortgroupDuplicateName, PortgroupMACAlreadyExists, PortgroupNotFound,
} from '../../common/errors';

type Table = 'ports' | 'portgroups';

/** create_port: any duplicate but the MAC (a name too) is reported as Ironic does, PortAlreadyExists of the new UUID. */
function portInsertDuplicate(cols: string[], v: Partial<PortRecord>): Error | null {
  if (cols.includes('address')) return new MACAlreadyExists({ mac: v.address });
  return cols.length > 0 ? new PortAlreadyExists({ uuid: v.uuid }) : null;
}

function portDuplicate(cols: string[], v: Partial<PortRecord>): Error | null {
  if (cols.includes('address')) return new MACAlreadyExists({ mac: v.address });
  if (cols.includes('name')) return new PortDuplicateName({ name: v.name });
  if (cols.includes('uuid')) return new PortAlreadyExists({ uuid: v.uuid });
  return null;
}

function portgroupDuplicate(cols: string[], v: Partial<PortgroupRecord>): Error | null {
  if (cols.includes('address')) return new PortgroupMACAlreadyExists({ mac: v.address });
  if (cols.includes('name')) return new PortgroupDuplicateName({ name: v.name });
  if (cols.includes('uuid')) return new PortgroupAlreadyExists({ uuid: v.uuid });
  return null;
}

async function guarded<T>(fn: () => Promise<T>, map: (cols: string[]) => Error | null): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const cols = duplicateColumns(err);
    throw (cols ? map(cols) : null) ?? err;
  }
}

async function findBy<R>(db: Database, table: Table, where: Record<string, unknown>): Promise<R | null> {
  const row = await db.knex(table).where(where).first() as Record<string, unknown> | undefined;
  return row ? decodeRow<R>(table, row) : null;
}

export async function findPort(db: Database, uuid: string): Promise<PortRecord> {
  const port = await findBy<PortRecord>(db, 'ports', { uuid });
  if (!port) throw new PortNotFound({ port: uuid });
  return port;
}

export async function findPortgroup(db: Database, uuid: string): Promise<PortgroupRecord> {
  const pg = await findBy<PortgroupRecord>(db, 'portgroups', { uuid });
  if (!pg) throw new PortgroupNotFound({ portgroup: uuid });
  return pg;
}

export async function portsOfNode(db: Database, nodeId: number): Promise<PortRecord[]> {
  const rows = await db.knex('ports').where({ node_id: nodeId }).orderBy('id') as Array<Record<string, unknown>>;
  return rows.map((r) => decodeRow<PortRecord>('ports', r));
}

export async function portgroupsOfNode(db: Database, nodeId: number): Promise<PortgroupRecord[]> {
  const rows = await db.knex('portgroups').where({ node_id: nodeId }).orderBy('id') as Array<Record<string, unknown>>;
  return rows.map((r) => decodeRow<PortgroupRecord>('portgroups', r));
}

export async function insertPort(db: Database, values: Partial<PortRecord>): Promise<PortRecord> {
  const v = { version: '1.11', ...values, uuid: values.uuid ?? randomUUID() };
  await guarded(() => db.knex('ports').insert(encodeInsert('ports', v, db.dialect, new Date())), (c) => portInsertDuplicate(c, v));
  return findPort(db, v.uuid);
}

/** Nothing changed, nothing written: SQLAlchemy issues no UPDATE (and stamps no updated_at) for a clean object. */
function unchanged(changes: object): boolean {
  return Object.keys(changes).length === 0;
}

export async function updatePortRow(db: Database, id: number, changes: Partial<PortRecord>): Promise<void> {
  if (unchanged(changes)) return;
  const row = encodeRow('ports', { ...changes, updated_at: new Date() }, db.dialect);
  await guarded(() => db.knex('ports').where({ id }).update(row), (c) => portDuplicate(c, changes));
}

export async function deletePortRow(db: Database, id: number): Promise<void> {
  await db.knex('ports').where({ id }).delete();
}

export async function insertPortgroup(db: Database, values: Partial<PortgroupRecord>): Promise<PortgroupRecord> {
  const v = { version: '1.5', ...values, uuid: values.uuid ?? randomUUID() };
  await guarded(() => db.knex('portgroups').insert(encodeInsert('portgroups', v, db.dialect, new Date())),
    (c) => portgroupDuplicate(c, v));
  return findPortgroup(db, v.uuid);
}

export async function updatePortgroupRow(db: Database, id: number, changes: Partial<PortgroupRecord>): Promise<void> {
  if (unchanged(changes)) return;
  const row = encodeRow('portgroups', { ...changes, updated_at: new Date() }, db.dialect);
  await guarded(() => db.knex('portgroups').where({ id }).update(row), (c) => portgroupDuplicate(c, changes));
}

export async function deletePortgroupRow(db: Database, id: number): Promise<void> {
  await db.knex('portgroups').where({ id }).delete();
}

export async function portgroupHasPorts(db: Database, portgroupId: number): Promise<boolean> {
  const row = await db.knex('ports').where({ portgroup_id: portgroupId }).first('id');
  return row !== undefined;
}

/** The physical networks of a portgroup's member ports other than `excludePortId` (network.get_physnets_by_portgroup_id). */
export async function memberPhysnets(db: Database, portgroupId: number, excludePortId: number | null): Promise<Set<string | null>> {
  const query = db.knex('ports').where({ portgroup_id: portgroupId }).select('physical_network');
  if (excludePortId !== null) query.whereNot({ id: excludePortId });
  const rows = await query as Array<{ physical_network: string | null }>;
  return new Set(rows.map((r) => r.physical_network));
}

export async function portgroupUuidOf(db: Database, portgroupId: number): Promise<string> {
  const row = await db.knex('portgroups').where({ id: portgroupId }).first('uuid') as { uuid: string } | undefined;
  return row?.uuid ?? String(portgroupId);
}
