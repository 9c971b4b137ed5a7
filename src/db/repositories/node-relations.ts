/**
 * Loads traits and tags for a page of nodes with one IN query each (chunked), never per node,
 * so listing thousands of nodes stays a handful of queries.
 */
import { decodeRow } from '../codec';
import type { NodeRecord, NodeTagRecord, NodeTraitRecord, NodeWithRelations } from '../models';
import type { Executor } from './table-access';

// Well under SQLite (32766) and MySQL (65535) placeholder limits.
const CHUNK = 5000;

async function loadByNodeIds<R extends { node_id: number }>(ex: Executor, table: 'node_traits' | 'node_tags',
  order: string, ids: number[]): Promise<Map<number, R[]>> {
  const byNode = new Map<number, R[]>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await ex(table).whereIn('node_id', ids.slice(i, i + CHUNK)).orderBy(['node_id', order]) as
      Array<Record<string, unknown>>;
    for (const raw of rows) {
      const rec = decodeRow<R>(table, raw);
      const list = byNode.get(rec.node_id);
      if (list) list.push(rec);
      else byNode.set(rec.node_id, [rec]);
    }
  }
  return byNode;
}

export async function attachRelations(ex: Executor, nodes: NodeRecord[]): Promise<NodeWithRelations[]> {
  if (nodes.length === 0) return [];
  const ids = nodes.map((n) => n.id);
  const traits = await loadByNodeIds<NodeTraitRecord>(ex, 'node_traits', 'trait', ids);
  const tags = await loadByNodeIds<NodeTagRecord>(ex, 'node_tags', 'tag', ids);
  // Filled in place: the records are freshly decoded, and copying 65-key objects per page showed in profiles.
  return nodes.map((n) => Object.assign(n, { traits: traits.get(n.id) ?? [], tags: tags.get(n.id) ?? [] }));
}

/** Each node's trait names, in the order attachRelations gives them. */
export async function traitsByNode(ex: Executor, ids: number[]): Promise<Map<number, string[]>> {
  const traits = await loadByNodeIds<NodeTraitRecord>(ex, 'node_traits', 'trait', ids);
  return new Map([...traits].map(([id, list]) => [id, list.map((t) => t.trait)]));
}
