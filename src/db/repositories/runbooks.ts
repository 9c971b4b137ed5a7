/** Runbooks (newer Ironic) with their steps and traits, written together in one transaction. */
import type { Knex } from 'knex';
import { decodeRow } from '../codec';
import type { Database } from '../connection';
import { DuplicateError, NotFoundError } from '../errors';
import type { RunbookRecord, RunbookStepRecord, RunbookTraitRecord, RunbookWithRelations, Writable } from '../models';
import type { PageOptions } from './paginate';
import { defineResource } from './resource';
import { Executor, insertRow, updateWhere } from './table-access';

export interface RunbookStepValues {
  interface: string;
  step: string;
  args: Record<string, unknown>;
  order: number;
}

export type RunbookValues = Writable<RunbookRecord> & { steps?: RunbookStepValues[]; traits?: string[] };

export interface RunbookFilters {
  /** Runbooks owned by this project or public ones. */
  project?: string;
  public?: boolean;
}

function duplicate(values: Record<string, unknown>) {
  return (columns: string[]) => columns.includes('name')
    ? new DuplicateError('RunbookDuplicateName', `A runbook with name ${values.name} already exists.`, columns)
    : new DuplicateError('RunbookAlreadyExists', `A runbook with UUID ${values.uuid} already exists.`, columns);
}

const resource = defineResource<RunbookRecord, RunbookFilters>(
  { table: 'runbooks', noun: 'Runbook', duplicate, hasName: true }, (query, f) => {
    if (f.public !== undefined) query.where('runbooks.public', f.public ? 1 : 0);
    if (f.project !== undefined) {
      const p = f.project;
      query.where((q) => { q.where('runbooks.owner', p).orWhere('runbooks.public', 1); });
    }
  });

async function attach(ex: Executor, runbooks: RunbookRecord[]): Promise<RunbookWithRelations[]> {
  if (runbooks.length === 0) return [];
  const ids = runbooks.map((r) => r.id);
  const steps = (await ex('runbook_steps').whereIn('runbook_id', ids).orderBy('id') as Array<Record<string, unknown>>)
    .map((r) => decodeRow<RunbookStepRecord>('runbook_steps', r));
  const traits = (await ex('runbook_traits').whereIn('runbook_id', ids).orderBy('trait') as Array<Record<string, unknown>>)
    .map((r) => decodeRow<RunbookTraitRecord>('runbook_traits', r));
  return runbooks.map((r) => ({
    ...r, steps: steps.filter((s) => s.runbook_id === r.id), traits: traits.filter((t) => t.runbook_id === r.id),
  }));
}

async function writeChildren(trx: Knex.Transaction, db: Database, id: number, values: RunbookValues): Promise<void> {
  const version = values.version ?? null;
  if (values.steps) {
    await trx('runbook_steps').where({ runbook_id: id }).delete();
    for (const s of values.steps) await insertRow(trx, db.dialect, 'runbook_steps', { ...s, runbook_id: id, version });
  }
  if (values.traits) {
    await trx('runbook_traits').where({ runbook_id: id }).delete();
    for (const trait of new Set(values.traits)) {
      await insertRow(trx, db.dialect, 'runbook_traits', { runbook_id: id, trait, version });
    }
  }
}

export async function create(db: Database, values: RunbookValues): Promise<RunbookWithRelations> {
  const { steps, traits, ...fields } = values;
  const id = await db.transaction(async (trx) => {
    const created = await resource.create(db, fields, trx);
    await writeChildren(trx, db, created.id, { steps: steps ?? [], traits: traits ?? [], version: fields.version });
    return created.id;
  });
  return get(db, id);
}

/** By id, uuid or name. */
export async function get(db: Database, ident: number | string): Promise<RunbookWithRelations> {
  return (await attach(db.knex, [await resource.get(db, ident)]))[0];
}

export async function list(db: Database, filters: RunbookFilters = {}, page: PageOptions = {}):
  Promise<RunbookWithRelations[]> {
  return attach(db.knex, await resource.list(db, filters, page));
}

/** Updates fields; `steps`/`traits`, when given, replace the existing ones. */
export async function update(db: Database, ident: number | string, values: RunbookValues): Promise<RunbookWithRelations> {
  const { steps, traits, ...fields } = values;
  const id = await db.transaction(async (trx) => {
    const current = await resource.get(db, ident, trx);
    await updateWhere(trx, db.dialect, 'runbooks', { id: current.id }, fields, duplicate(fields));
    await writeChildren(trx, db, current.id, { steps, traits, version: fields.version ?? current.version });
    return current.id;
  });
  return get(db, id);
}

export async function destroy(db: Database, ident: number | string): Promise<void> {
  await db.transaction(async (trx) => {
    const row = await trx('runbooks').where(resource.whereFor(ident)).first('id') as { id: number } | undefined;
    if (!row) throw new NotFoundError('Runbook', ident);
    await trx('runbook_steps').where({ runbook_id: row.id }).delete();
    await trx('runbook_traits').where({ runbook_id: row.id }).delete();
    await trx('runbooks').where({ id: row.id }).delete();
  });
}
