/** Firmware components of a node (firmware_information, unique per node + component). */
import type { Database } from '../connection';
import { DuplicateError, NotFoundError } from '../errors';
import type { FirmwareComponentRecord } from '../models';
import { insertRow, selectMany, updateWhere } from './table-access';

export type FirmwareComponentValues = Partial<Omit<FirmwareComponentRecord, 'id' | 'node_id' | 'created_at' | 'updated_at'>>
  & { component: string };

export async function list(db: Database, nodeId: number): Promise<FirmwareComponentRecord[]> {
  return selectMany<FirmwareComponentRecord>(db.knex, 'firmware_information', { node_id: nodeId }, 'id');
}

export async function get(db: Database, nodeId: number, component: string): Promise<FirmwareComponentRecord> {
  const rows = await selectMany<FirmwareComponentRecord>(db.knex, 'firmware_information', { node_id: nodeId, component });
  if (rows.length === 0) throw new NotFoundError('FirmwareComponent', component);
  return rows[0];
}

export async function create(db: Database, nodeId: number, values: FirmwareComponentValues): Promise<FirmwareComponentRecord> {
  await insertRow(db.knex, db.dialect, 'firmware_information', { ...values, node_id: nodeId }, (cols) =>
    new DuplicateError('FirmwareComponentAlreadyExists',
      `A Firmware component ${values.component} for node ${nodeId} already exists.`, cols));
  return get(db, nodeId, values.component);
}

export async function update(db: Database, nodeId: number, component: string,
  values: Partial<FirmwareComponentValues>): Promise<FirmwareComponentRecord> {
  const n = await updateWhere(db.knex, db.dialect, 'firmware_information', { node_id: nodeId, component }, values);
  if (n === 0) throw new NotFoundError('FirmwareComponent', component);
  return get(db, nodeId, component);
}
