/** Chassis; destroy refuses while nodes reference the chassis (ChassisNotEmpty). */
import type { Database } from '../connection';
import { DuplicateError, NotEmptyError } from '../errors';
import type { ChassisRecord, Writable } from '../models';
import type { PageOptions } from './paginate';
import { defineResource } from './resource';

function duplicate(values: Record<string, unknown>) {
  return (columns: string[]) =>
    new DuplicateError('ChassisAlreadyExists', `A chassis with UUID ${values.uuid} already exists.`, columns);
}

const resource = defineResource<ChassisRecord, Record<string, never>>(
  { table: 'chassis', noun: 'Chassis', duplicate }, () => undefined);

export type ChassisValues = Writable<ChassisRecord>;

export const create = (db: Database, values: ChassisValues): Promise<ChassisRecord> => resource.create(db, values);
/** By id or uuid. */
export const get = (db: Database, ident: number | string): Promise<ChassisRecord> => resource.get(db, ident);
export const list = (db: Database, page: PageOptions = {}): Promise<ChassisRecord[]> => resource.list(db, {}, page);
export const update = (db: Database, ident: number | string, values: ChassisValues): Promise<ChassisRecord> =>
  resource.update(db, ident, values);

export async function destroy(db: Database, ident: number | string): Promise<void> {
  await db.transaction(async (trx) => {
    const chassis = await resource.get(db, ident, trx);
    if (await trx('nodes').where({ chassis_id: chassis.id }).first('id')) {
      throw new NotEmptyError('ChassisNotEmpty',
        `Cannot complete the requested action because chassis ${chassis.uuid} contains nodes.`);
    }
    await trx('chassis').where({ id: chassis.id }).delete();
  });
}
