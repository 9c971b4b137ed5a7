/** Node tags (node_tags); replacing the set runs in one transaction. */
import type { Knex } from 'knex';
import type { Database } from '../connection';
import { NotFoundError } from '../errors';
import type { NodeTagRecord } from '../models';
import { Executor, insertRow, selectMany } from './table-access';

async function assertNode(ex: Executor, nodeId: number): Promise<void> {
  const row = await ex('nodes').where({ id: nodeId }).first('id');
  if (!row) throw new NotFoundError('Node', nodeId);
}

export async function listTags(db: Database, nodeId: number): Promise<NodeTagRecord[]> {
  await assertNode(db.knex, nodeId);
  return selectMany<NodeTagRecord>(db.knex, 'node_tags', { node_id: nodeId }, 'tag');
}

export async function setTags(db: Database, nodeId: number, tags: string[], version: string | null = null):
  Promise<NodeTagRecord[]> {
  await db.transaction(async (trx: Knex.Transaction) => {
    await assertNode(trx, nodeId);
    await trx('node_tags').where({ node_id: nodeId }).delete();
    for (const tag of new Set(tags)) await insertRow(trx, db.dialect, 'node_tags', { node_id: nodeId, tag, version });
  });
  return selectMany<NodeTagRecord>(db.knex, 'node_tags', { node_id: nodeId }, 'tag');
}

export async function addTag(db: Database, nodeId: number, tag: string, version: string | null = null):
  Promise<NodeTagRecord> {
  await db.transaction(async (trx: Knex.Transaction) => {
    await assertNode(trx, nodeId);
    if (await trx('node_tags').where({ node_id: nodeId, tag }).first('tag')) return;
    await insertRow(trx, db.dialect, 'node_tags', { node_id: nodeId, tag, version });
  });
  return (await selectMany<NodeTagRecord>(db.knex, 'node_tags', { node_id: nodeId, tag }, 'tag'))[0];
}

export async function removeTag(db: Database, nodeId: number, tag: string): Promise<void> {
  await assertNode(db.knex, nodeId);
  const n = await db.knex('node_tags').where({ node_id: nodeId, tag }).delete();
  if (n === 0) throw new NotFoundError('NodeTag', tag);
}

export async function removeAllTags(db: Database, nodeId: number): Promise<void> {
  await assertNode(db.knex, nodeId);
  await db.knex('node_tags').where({ node_id: nodeId }).delete();
}

export async function tagExists(db: Database, nodeId: number, tag: string): Promise<boolean> {
  await assertNode(db.knex, nodeId);
  return Boolean(await db.knex('node_tags').where({ node_id: nodeId, tag }).first('tag'));
}
