/** Node traits (node_traits), with Ironic's 50-per-node limit; set/add run in one transaction. */
import type { Knex } from 'knex';
import type { Database } from '../connection';
import { InvalidParameterError, NotFoundError } from '../errors';
import type { NodeTraitRecord } from '../models';
import { Executor, insertRow, selectMany } from './table-access';

export const MAX_TRAITS_PER_NODE = 50;

async function assertNode(ex: Executor, nodeId: number): Promise<void> {
  const row = await ex('nodes').where({ id: nodeId }).first('id');
  if (!row) throw new NotFoundError('Node', nodeId);
}

/** _verify_max_traits_per_node: `count` is how many the node would have; the message names its id. */
function tooMany(nodeId: number, count: number): InvalidParameterError {
  return new InvalidParameterError(`Could not modify traits for node ${nodeId} as it would exceed the maximum ` +
    `number of traits per node (${count} vs. ${MAX_TRAITS_PER_NODE})`);
}

export async function listTraits(db: Database, nodeId: number): Promise<NodeTraitRecord[]> {
  await assertNode(db.knex, nodeId);
  return selectMany<NodeTraitRecord>(db.knex, 'node_traits', { node_id: nodeId }, 'trait');
}

/** The node's trait names in trait order, without checking that the node exists. */
export async function traitNames(db: Database, nodeId: number): Promise<string[]> {
  const rows = await selectMany<NodeTraitRecord>(db.knex, 'node_traits', { node_id: nodeId }, 'trait');
  return rows.map((r) => r.trait);
}

/** Replaces all traits of the node. */
export async function setTraits(db: Database, nodeId: number, traits: string[], version: string | null = null):
  Promise<NodeTraitRecord[]> {
  const unique = [...new Set(traits)];
  if (unique.length > MAX_TRAITS_PER_NODE) throw tooMany(nodeId, unique.length);
  await db.transaction(async (trx: Knex.Transaction) => {
    await assertNode(trx, nodeId);
    await trx('node_traits').where({ node_id: nodeId }).delete();
    for (const trait of unique) await insertRow(trx, db.dialect, 'node_traits', { node_id: nodeId, trait, version });
  });
  return selectMany<NodeTraitRecord>(db.knex, 'node_traits', { node_id: nodeId }, 'trait');
}

/** Adds one trait (no-op but version refresh when present). */
export async function addTrait(db: Database, nodeId: number, trait: string, version: string | null = null):
  Promise<NodeTraitRecord> {
  await db.transaction(async (trx: Knex.Transaction) => {
    await assertNode(trx, nodeId);
    const existing = await trx('node_traits').where({ node_id: nodeId, trait }).first('trait');
    if (existing) {
      await trx('node_traits').where({ node_id: nodeId, trait }).update({ version });
      return;
    }
    const row = await trx('node_traits').where({ node_id: nodeId }).count({ n: '*' }).first() as { n: number | string };
    if (Number(row.n) >= MAX_TRAITS_PER_NODE) throw tooMany(nodeId, Number(row.n) + 1);
    await insertRow(trx, db.dialect, 'node_traits', { node_id: nodeId, trait, version });
  });
  const rows = await selectMany<NodeTraitRecord>(db.knex, 'node_traits', { node_id: nodeId, trait }, 'trait');
  return rows[0];
}

export async function removeTrait(db: Database, nodeId: number, trait: string): Promise<void> {
  await assertNode(db.knex, nodeId);
  const n = await db.knex('node_traits').where({ node_id: nodeId, trait }).delete();
  if (n === 0) throw new NotFoundError('NodeTrait', trait);
}

export async function removeAllTraits(db: Database, nodeId: number): Promise<void> {
  await assertNode(db.knex, nodeId);
  await db.knex('node_traits').where({ node_id: nodeId }).delete();
}

export async function traitExists(db: Database, nodeId: number, trait: string): Promise<boolean> {
  await assertNode(db.knex, nodeId);
  return Boolean(await db.knex('node_traits').where({ node_id: nodeId, trait }).first('trait'));
}
