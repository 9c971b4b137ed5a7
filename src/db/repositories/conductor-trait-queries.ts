/** The deploy templates whose names match a node's traits, as deployments read them. */
import { decodeRow } from '../codec';
import type { Database } from '../connection';
import type { DeployTemplateStepRecord, DeployTemplateWithSteps, DeployTemplateRecord } from '../models';

/** Deploy templates whose name is one of `names` (get_deploy_template_list_by_names). */
export async function templatesByNames(db: Database, names: string[]): Promise<DeployTemplateWithSteps[]> {
  if (names.length === 0) return [];
  const rows = await db.knex('deploy_templates').whereIn('name', names).orderBy('id') as Array<Record<string, unknown>>;
  const out: DeployTemplateWithSteps[] = [];
  for (const raw of rows) {
    const t = decodeRow<DeployTemplateRecord>('deploy_templates', raw);
    const steps = (await db.knex('deploy_template_steps').where({ deploy_template_id: t.id }).orderBy('id') as
      Array<Record<string, unknown>>).map((r) => decodeRow<DeployTemplateStepRecord>('deploy_template_steps', r));
    out.push({ ...t, steps });
  }
  return out;
}
