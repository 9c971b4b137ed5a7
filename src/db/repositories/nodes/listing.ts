/** Node listing: filtered, paginated pages (decoded or raw for the API's fast path) and counts. */
import type { Knex } from 'knex';
import { decodeRow } from '../../codec';
import type { Database } from '../../connection';
import { NotFoundError } from '../../errors';
import type { NodeRecord, NodeWithRelations } from '../../models';
import { RawRows, selectArrays } from '../../raw-select';
import { applyNodeFilters, NodeFilters } from '../node-filters';
import { attachRelations, traitsByNode } from '../node-relations';
import { applyPage, loadMarker, PageOptions } from '../paginate';

export interface NodeListOptions extends PageOptions {
  /** Skip loading traits/tags (Ironic's NodeBase queries); records then carry empty lists. */
  withoutRelations?: boolean;
  /** Only these node columns are read (others come back null); all of them when absent. */
  columns?: readonly string[];
  /** JSON columns come back as StoredJson (their stored text), for views that only pass them on. */
  storedJson?: boolean;
}

/** The page's query, wrapped: a knex builder is thenable, so returning it bare from an async function would run it. */
async function pageQuery(db: Database, filters: NodeFilters, opts: NodeListOptions): Promise<{ query: Knex.QueryBuilder }> {
  const marker = await loadMarker(db.knex, 'nodes', opts.marker, () => new NotFoundError('Node', String(opts.marker)));
  const query = db.knex('nodes').select(opts.columns ? opts.columns.map((c) => `nodes.${c}`) : 'nodes.*');
  applyNodeFilters(query, filters, db.dialect);
  applyPage(query, 'nodes', opts, marker);
  return { query };
}

export async function list(db: Database, filters: NodeFilters = {}, opts: NodeListOptions = {}):
  Promise<NodeWithRelations[]> {
  const rows = await (await pageQuery(db, filters, opts)).query as Array<Record<string, unknown>>;
  const decodeOpts = { storedJson: opts.storedJson };
  const nodes = rows.map((r) => decodeRow<NodeRecord>('nodes', r, decodeOpts));
  if (opts.withoutRelations) return nodes.map((n) => Object.assign(n, { traits: [], tags: [] }));
  return attachRelations(db.knex, nodes);
}

/** A page of nodes as the driver returns them (column list plus value arrays), and their traits unless skipped. */
export interface NodePage extends RawRows {
  traits: Map<number, string[]> | null;
}

/**
 * The rows `list` would decode, left undecoded for views that write them straight to the wire;
 * `columns` must include id when traits are wanted.
 */
export async function listPage(db: Database, filters: NodeFilters, opts: NodeListOptions & { columns: readonly string[] }):
  Promise<NodePage> {
  const { query } = await pageQuery(db, filters, opts);
  const page = await selectArrays(db, query, opts.columns.map((c) => `nodes.${c}`));
  if (opts.withoutRelations) return { ...page, traits: null };
  const idAt = page.columns.indexOf('id');
  return { ...page, traits: await traitsByNode(db.knex, page.rows.map((r) => Number(r[idAt]))) };
}

export async function count(db: Database, filters: NodeFilters = {}): Promise<number> {
  const query = db.knex('nodes').count({ n: '*' });
  applyNodeFilters(query, filters, db.dialect);
  const row = await query.first() as { n?: number | string } | undefined;
  return Number(row?.n ?? 0);
}
