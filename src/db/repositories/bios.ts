/** BIOS settings of a node (bios_settings, keyed by node_id + name); batch writes are atomic. */
import type { Database } from '../connection';
import { DuplicateError, NotFoundError } from '../errors';
import type { BiosSettingRecord } from '../models';
import { Executor, insertRow, selectMany, updateWhere } from './table-access';

export type BiosSettingValues = Partial<Omit<BiosSettingRecord, 'node_id' | 'created_at' | 'updated_at' | 'version'>>
  & { name: string };

async function assertNode(ex: Executor, nodeId: number): Promise<void> {
  if (!(await ex('nodes').where({ id: nodeId }).first('id'))) throw new NotFoundError('Node', nodeId);
}

export async function list(db: Database, nodeId: number): Promise<BiosSettingRecord[]> {
  await assertNode(db.knex, nodeId);
  return selectMany<BiosSettingRecord>(db.knex, 'bios_settings', { node_id: nodeId }, 'name');
}

export async function get(db: Database, nodeId: number, name: string): Promise<BiosSettingRecord> {
  await assertNode(db.knex, nodeId);
  const rows = await selectMany<BiosSettingRecord>(db.knex, 'bios_settings', { node_id: nodeId, name }, 'name');
  if (rows.length === 0) throw new NotFoundError('BIOSSetting', name);
  return rows[0];
}

export async function create(db: Database, nodeId: number, settings: BiosSettingValues[], version: string | null = null):
  Promise<BiosSettingRecord[]> {
  await db.transaction(async (trx) => {
    await assertNode(trx, nodeId);
    for (const s of settings) {
      await insertRow(trx, db.dialect, 'bios_settings', { ...s, node_id: nodeId, version }, (cols) =>
        new DuplicateError('BIOSSettingAlreadyExists',
          `A BIOS setting ${s.name} for node ${nodeId} already exists.`, cols));
    }
  });
  return selectNamed(db, nodeId, settings.map((s) => s.name));
}

/** Updates existing settings; BIOSSettingListNotFound (nothing written) if any is missing. */
export async function update(db: Database, nodeId: number, settings: BiosSettingValues[], version: string | null = null):
  Promise<BiosSettingRecord[]> {
  await db.transaction(async (trx) => {
    await assertNode(trx, nodeId);
    const missing: string[] = [];
    for (const s of settings) {
      const { name, ...fields } = s;
      const n = await updateWhere(trx, db.dialect, 'bios_settings', { node_id: nodeId, name }, { ...fields, version });
      if (n === 0) missing.push(name);
    }
    if (missing.length) throw new NotFoundError('BIOSSettingList', missing.join(', '));
  });
  return selectNamed(db, nodeId, settings.map((s) => s.name));
}

/** Deletes the named settings; BIOSSettingListNotFound (nothing deleted) if any is missing. */
export async function destroy(db: Database, nodeId: number, names: string[]): Promise<void> {
  await db.transaction(async (trx) => {
    await assertNode(trx, nodeId);
    const found = await trx('bios_settings').where({ node_id: nodeId }).whereIn('name', names).select('name') as
      Array<{ name: string }>;
    const existing = new Set(found.map((r) => r.name));
    const missing = names.filter((x) => !existing.has(x));
    if (missing.length) throw new NotFoundError('BIOSSettingList', missing.join(', '));
    await trx('bios_settings').where({ node_id: nodeId }).whereIn('name', names).delete();
  });
}

/**
 * BIOSSettingList.sync_node_setting, applied: the node's settings become exactly `wanted` (new names
 * created, changed values updated, names no longer wanted deleted); unchanged ones are left alone.
 */
export async function replaceAll(db: Database, nodeId: number, wanted: ReadonlyMap<string, string | null>,
  version: string | null = null): Promise<void> {
  const existing = new Map((await list(db, nodeId)).map((r) => [r.name, r.value]));
  const created = [...wanted].filter(([name]) => !existing.has(name)).map(([name, value]) => ({ name, value }));
  const updated = [...wanted].filter(([name, value]) => existing.has(name) && existing.get(name) !== value)
    .map(([name, value]) => ({ name, value }));
  const removed = [...existing.keys()].filter((name) => !wanted.has(name));
  if (created.length) await create(db, nodeId, created, version);
  if (updated.length) await update(db, nodeId, updated, version);
  if (removed.length) await destroy(db, nodeId, removed);
}

async function selectNamed(db: Database, nodeId: number, names: string[]): Promise<BiosSettingRecord[]> {
  const rows = await list(db, nodeId);
  const wanted = new Set(names);
  return rows.filter((r) => wanted.has(r.name));
}
