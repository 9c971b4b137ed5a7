/**
 * Sorting and marker pagination with oslo.db paginate_query semantics as Ironic uses them:
 * sort keys [sort_key, 'id'] in one direction; the marker row's values select the rows after it,
 * and a NULL marker value drops that key from the criteria (as oslo.db does).
 */
import type { Knex } from 'knex';
import { TABLES, TableName } from '../columns';
import { InvalidSortKeyError } from '../errors';

export interface PageOptions {
  limit?: number;
  /** UUID (or, for uuid-less tables, id) of the last row of the previous page. */
  marker?: string;
  sortKey?: string;
  sortDir?: 'asc' | 'desc';
}

function sortKeys(table: TableName, sortKey?: string): string[] {
  const spec: Readonly<Record<string, string>> = TABLES[table];
  if (sortKey && sortKey !== 'id') {
    const kind = Object.hasOwn(spec, sortKey) ? spec[sortKey] : undefined;
    if (kind === undefined || kind === 'dict' || kind === 'list') throw new InvalidSortKeyError(sortKey);
    return [sortKey, 'id'];
  }
  return ['id'];
}

/**
 * Adds ORDER BY, the marker criteria and LIMIT to `query` (columns qualified by `alias`).
 * `rawMarker` is the marker row as stored (undecoded), so comparisons keep full precision.
 */
export function applyPage(query: Knex.QueryBuilder, table: TableName, page: PageOptions,
  rawMarker: Record<string, unknown> | null, alias: string = table): Knex.QueryBuilder {
  const keys = sortKeys(table, page.sortKey);
  const dir = page.sortDir === 'desc' ? 'desc' : 'asc';
  for (const key of keys) query.orderBy(`${alias}.${key}`, dir);
  if (rawMarker) {
    const values = keys.map((k) => (rawMarker[k] ?? null) as string | number | null);
    const op = dir === 'desc' ? '<' : '>';
    query.where((outer) => {
      keys.forEach((key, i) => {
        if (values[i] === null) return;
        outer.orWhere((inner) => {
          for (let j = 0; j < i; j++) {
            if (values[j] !== null) inner.where(`${alias}.${keys[j]}`, values[j] as string | number);
          }
          inner.where(`${alias}.${key}`, op, values[i] as string | number);
        });
      });
    });
  }
  if (page.limit !== undefined && page.limit > 0) query.limit(page.limit);
  return query;
}

/** Loads the raw marker row by uuid; null when no marker was given. */
export async function loadMarker(ex: Knex | Knex.Transaction, table: TableName, marker: string | undefined,
  onMissing: () => Error): Promise<Record<string, unknown> | null> {
  if (marker === undefined || marker === '') return null;
  const row = await ex(table).where({ uuid: marker }).first() as Record<string, unknown> | undefined;
  if (!row) throw onMissing();
  return row;
}
