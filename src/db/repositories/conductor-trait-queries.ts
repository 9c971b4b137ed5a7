/** Node traits and the deploy templates whose names match them, as deployments read them. */
import { decodeRow, encodeInsert } from '../codec';
import type { Database } from '../connection';
import type { DeployTemplateStepRecord, DeployTemplateWithSteps, DeployTemplateRecord } from '../models';

export async function replaceTraits(db: Database, nodeId: number, traits: string[]): Promise<void> {
  await db.transaction(async (trx) => {
    await trx('node_traits').where({ node_id: nodeId }).delete();
    for (const trait of [...new Set(traits)]) {
      await trx('node_traits').insert(encodeInsert('node_traits', { node_id: nodeId, trait, version: '1.0' }, db.dialect, new Date()));
    }
  });
}

export async function addTraits(db: Database, nodeId: number, traits: string[]): Promise<void> {
  const existing = new Set((await db.knex('node_traits').where({ node_id: nodeId }).select('trait') as Array<{ trait: string }>)
    .map((r) => r.trait));
  for (const trait of [...new Set(traits)]) {
    if (existing.has(trait)) continue;
    await db.knex('node_traits').insert(encodeInsert('node_traits', { node_id: nodeId, trait, version: '1.0' }, db.dialect, new Date()));
  }
}

export async function deleteTraits(db: Database, nodeId: number, traits: string[] | null): Promise<void> {
  const q = db.knex('node_traits').where({ node_id: nodeId });
  if (traits !== null) q.whereIn('trait', traits);
  await q.delete();
}

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
