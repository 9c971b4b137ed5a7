/**
 * Row-level reads and writes shared by the repositories: encode/decode through codec.ts,
 * stamp created_at/updated_at like Ironic's TimestampMixin, and turn duplicate-key violations
 * into the caller's typed error.
 */
import type { Knex } from 'knex';
import { decodeRow, encodeInsert, encodeRow, Dialect } from '../codec';
import type { TableName } from '../columns';
import { duplicateColumns } from '../duplicate';

export type Executor = Knex | Knex.Transaction;

/** Builds the typed error for a duplicate on `columns`, or null to rethrow the driver error. */
export type DuplicateMapper = (columns: string[]) => Error | null;

function rethrowDuplicate(err: unknown, mapDuplicate?: DuplicateMapper): never {
  const columns = duplicateColumns(err);
  if (columns !== null && mapDuplicate) {
    const typed = mapDuplicate(columns);
    if (typed) throw typed;
  }
  throw err;
}

/** Inserts one row and returns its autoincrement id (0 for tables keyed by other columns). */
export async function insertRow(ex: Executor, dialect: Dialect, table: TableName,
  values: Record<string, unknown>, mapDuplicate?: DuplicateMapper): Promise<number> {
  const row = encodeInsert(table, values, dialect, new Date());
  try {
    const result = await ex(table).insert(row) as unknown[];
    return Number(result[0] ?? 0);
  } catch (err) {
    return rethrowDuplicate(err, mapDuplicate);
  }
}

/** UPDATE with updated_at stamped; returns the affected row count. */
export async function updateWhere(ex: Executor, dialect: Dialect, table: TableName,
  where: Record<string, unknown>, values: Record<string, unknown>, mapDuplicate?: DuplicateMapper): Promise<number> {
  const row = encodeRow(table, { ...values, updated_at: values.updated_at ?? new Date() }, dialect);
  try {
    return await ex(table).where(where).update(row);
  } catch (err) {
    return rethrowDuplicate(err, mapDuplicate);
  }
}

export async function selectMany<R>(ex: Executor, table: TableName, where: Record<string, unknown>,
  orderBy: string = 'id'): Promise<R[]> {
  const rows = await ex(table).where(where).orderBy(orderBy) as Array<Record<string, unknown>>;
  return rows.map((r) => decodeRow<R>(table, r));
}

