/** Deploy templates with their steps; template and steps are always written together. */
import type { Knex } from 'knex';
import { decodeRow } from '../codec';
import type { Database } from '../connection';
import { DuplicateError, NotFoundError } from '../errors';
import type { DeployTemplateRecord, DeployTemplateStepRecord, DeployTemplateWithSteps, Writable } from '../models';
import type { PageOptions } from './paginate';
import { defineResource } from './resource';
import { Executor, insertRow, updateWhere } from './table-access';

export interface StepValues {
  interface: string;
  step: string;
  args: Record<string, unknown>;
  priority: number;
}

export type DeployTemplateValues = Writable<DeployTemplateRecord> & { steps?: StepValues[] };

function duplicate(values: Record<string, unknown>) {
  return (columns: string[]) => {
    if (columns.includes('name')) {
      return new DuplicateError('DeployTemplateDuplicateName',
        `A deploy template with name ${values.name} already exists.`, columns);
    }
    return new DuplicateError('DeployTemplateAlreadyExists',
      `A deploy template with UUID ${values.uuid} already exists.`, columns);
  };
}

const resource = defineResource<DeployTemplateRecord, Record<string, never>>(
  { table: 'deploy_templates', noun: 'DeployTemplate', duplicate, hasName: true }, () => undefined);

async function attachSteps(ex: Executor, templates: DeployTemplateRecord[]): Promise<DeployTemplateWithSteps[]> {
  if (templates.length === 0) return [];
  const rows = await ex('deploy_template_steps').whereIn('deploy_template_id', templates.map((t) => t.id))
    .orderBy('id') as Array<Record<string, unknown>>;
  const byTemplate = new Map<number, DeployTemplateStepRecord[]>();
  for (const raw of rows) {
    const step = decodeRow<DeployTemplateStepRecord>('deploy_template_steps', raw);
    byTemplate.set(step.deploy_template_id, [...(byTemplate.get(step.deploy_template_id) ?? []), step]);
  }
  return templates.map((t) => ({ ...t, steps: byTemplate.get(t.id) ?? [] }));
}

async function writeSteps(trx: Knex.Transaction, db: Database, templateId: number, steps: StepValues[],
  version: string | null): Promise<void> {
  await trx('deploy_template_steps').where({ deploy_template_id: templateId }).delete();
  for (const s of steps) {
    await insertRow(trx, db.dialect, 'deploy_template_steps', { ...s, deploy_template_id: templateId, version });
  }
}

export async function create(db: Database, values: DeployTemplateValues): Promise<DeployTemplateWithSteps> {
  const { steps = [], ...template } = values;
  const id = await db.transaction(async (trx) => {
    const created = await resource.create(db, template, trx);
    await writeSteps(trx, db, created.id, steps, template.version ?? null);
    return created.id;
  });
  return get(db, id);
}

/** By id, uuid or name. */
export async function get(db: Database, ident: number | string): Promise<DeployTemplateWithSteps> {
  return (await attachSteps(db.knex, [await resource.get(db, ident)]))[0];
}

export async function list(db: Database, page: PageOptions = {}): Promise<DeployTemplateWithSteps[]> {
  return attachSteps(db.knex, await resource.list(db, {}, page));
}

export async function getByNames(db: Database, names: string[]): Promise<DeployTemplateWithSteps[]> {
  if (names.length === 0) return [];
  const rows = await db.knex('deploy_templates').whereIn('name', names).orderBy('id') as Array<Record<string, unknown>>;
  return attachSteps(db.knex, rows.map((r) => decodeRow<DeployTemplateRecord>('deploy_templates', r)));
}

/** Updates the given fields and, when `steps` is given, replaces all steps — in one transaction. */
export async function update(db: Database, ident: number | string, values: DeployTemplateValues):
  Promise<DeployTemplateWithSteps> {
  const { steps, ...template } = values;
  const id = await db.transaction(async (trx) => {
    const current = await resource.get(db, ident, trx);
    // As with Ironic's ORM, a change to the steps alone leaves the template row (and updated_at) as it was.
    if (Object.keys(template).length > 0) {
      await updateWhere(trx, db.dialect, 'deploy_templates', { id: current.id }, template, duplicate(template));
    }
    if (steps) await writeSteps(trx, db, current.id, steps, template.version ?? current.version);
    return current.id;
  });
  return get(db, id);
}

export async function destroy(db: Database, ident: number | string): Promise<void> {
  await db.transaction(async (trx) => {
    const row = await trx('deploy_templates').where(resource.whereFor(ident)).first('id') as { id: number } | undefined;
    if (!row) throw new NotFoundError('DeployTemplate', ident);
    await trx('deploy_template_steps').where({ deploy_template_id: row.id }).delete();
    await trx('deploy_templates').where({ id: row.id }).delete();
  });
}
