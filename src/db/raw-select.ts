/**
 * Runs a knex-built SELECT with rows as arrays (better-sqlite3 raw mode, mysql2 rowsAsArray).
 *
 * Large read-only pages (node lists) spent a quarter of their time building one object per row
 * with a property per column; arrays with one column list for the page skip that. The query is
 * still built and pooled by knex: only the execution goes to the driver directly.
 */
import type { Knex } from 'knex';
import type { Database } from './connection';

export interface RawRows {
  columns: string[];
  rows: unknown[][];
}

interface SqliteStatement {
  raw(toggle: boolean): SqliteStatement;
  all(...bindings: unknown[]): unknown[][];
  columns(): Array<{ name: string }>;
}

interface SqliteConnection {
  prepare(sql: string): SqliteStatement;
}

interface MysqlField {
  name: string;
}

interface MysqlConnection {
  query(opts: { sql: string; values: readonly unknown[]; rowsAsArray: true },
    cb: (err: Error | null, rows: unknown[][], fields: MysqlField[]) => void): void;
}

/** The part of knex's client (not in its public typings) that lends out a pooled driver connection. */
interface PoolClient {
  acquireConnection(): Promise<unknown>;
  releaseConnection(conn: unknown): Promise<void>;
}

/** knex's better-sqlite3 binding rules: Dates as epoch ms, booleans as 0/1. */
function sqliteBinding(value: unknown): unknown {
  if (value instanceof Date) return value.valueOf();
  return typeof value === 'boolean' ? Number(value) : value;
}

/** Column names per (cached) statement: reading them from better-sqlite3 costs more than a small query. */
const columnNames = new WeakMap<SqliteStatement, string[]>();

function columnsOf(statement: SqliteStatement): string[] {
  let names = columnNames.get(statement);
  if (!names) {
    names = statement.columns().map((c) => c.name);
    columnNames.set(statement, names);
  }
  return names;
}

function selectSqlite(conn: SqliteConnection, sql: string, bindings: readonly unknown[]): RawRows {
  // Statements are cached and shared with knex, which expects objects: raw mode is switched back
  // before anything else can run on this connection.
  const statement = conn.prepare(sql);
  statement.raw(true);
  try {
    return { columns: columnsOf(statement), rows: statement.all(...bindings.map(sqliteBinding)) };
  } finally {
    statement.raw(false);
  }
}

function selectMysql(conn: MysqlConnection, sql: string, bindings: readonly unknown[]): Promise<RawRows> {
  return new Promise((resolve, reject) => {
    conn.query({ sql, values: bindings, rowsAsArray: true }, (err, rows, fields) => {
      if (err) reject(err);
      else resolve({ columns: fields.map((f) => f.name), rows });
    });
  });
}

export async function selectArrays(db: Database, query: Knex.QueryBuilder): Promise<RawRows> {
  const { sql, bindings } = query.toSQL().toNative();
  const client = db.knex.client as PoolClient;
  const conn = await client.acquireConnection();
  try {
    return db.dialect === 'sqlite'
      ? selectSqlite(conn as SqliteConnection, sql, bindings)
      : await selectMysql(conn as MysqlConnection, sql, bindings);
  } finally {
    await client.releaseConnection(conn);
  }
}
