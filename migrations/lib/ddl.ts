/**
 * Renders frozen table definitions to DDL for SQLite and MySQL/MariaDB, matching what
 * SQLAlchemy/alembic produce for Ironic (column types, constraint and index names, FK names).
 * Migrations own their definitions; this file only renders them.
 */
import type { Knex } from 'knex';

export type ColumnType = 'int' | 'bigint' | 'text' | 'longtext' | 'bool' | 'datetime' | `varchar(${number})`;

export interface ColumnDef {
  name: string;
  type: ColumnType;
  notNull?: boolean;
  /** SQL literal for a server default, e.g. "''" or "0". */
  serverDefault?: string;
  autoIncrement?: boolean;
}

export interface ForeignKeyDef {
  /** MySQL constraint name as Ironic's alembic history left it. */
  name: string;
  columns: string[];
  refTable: string;
  refColumns: string[];
  /** On SQLite, SQLAlchemy only names FKs that declare a name in the model. */
  sqliteNamed?: boolean;
}

export interface TableDef {
  name: string;
  columns: ColumnDef[];
  primaryKey: string[];
  uniques?: Array<{ name: string; columns: string[] }>;
  indexes?: Array<{ name: string; columns: string[] }>;
  /** Plain MySQL KEYs (the ones InnoDB created for foreign keys under the column name). */
  mysqlKeys?: Array<{ name: string; columns: string[] }>;
  foreignKeys?: ForeignKeyDef[];
  /**
   * MySQL table charset. Ironic 21.4.4 created utf8 (utf8mb3); we create utf8mb4, the state
   * upstream's c1fd28861bb9 converts to, so fresh databases never need that slow conversion.
   */
  charset?: string;
}

export type DdlDialect = 'sqlite' | 'mysql';

export function dialectOf(knex: Knex): DdlDialect {
  const client = String(knex.client.config.client);
  return client.includes('mysql') ? 'mysql' : 'sqlite';
}

function quote(name: string, dialect: DdlDialect): string {
  return dialect === 'mysql' ? `\`${name}\`` : `"${name}"`;
}

function list(names: string[], dialect: DdlDialect): string {
  return names.map((n) => quote(n, dialect)).join(', ');
}

export function columnType(type: ColumnType, dialect: DdlDialect): string {
  if (dialect === 'sqlite') {
    const map: Record<string, string> = {
      int: 'INTEGER', bigint: 'BIGINT', text: 'TEXT', longtext: 'TEXT', bool: 'BOOLEAN', datetime: 'DATETIME',
    };
    return map[type] ?? type.toUpperCase();
  }
  const map: Record<string, string> = {
    int: 'int(11)', bigint: 'bigint(20)', text: 'text', longtext: 'longtext', bool: 'tinyint(1)',
    datetime: 'datetime',
  };
  return map[type] ?? type;
}

export function columnSql(col: ColumnDef, dialect: DdlDialect): string {
  let sql = `${quote(col.name, dialect)} ${columnType(col.type, dialect)}`;
  if (col.serverDefault !== undefined) {
    sql += dialect === 'sqlite' && col.type === 'bool' ? ` DEFAULT (${col.serverDefault})` : ` DEFAULT ${col.serverDefault}`;
  }
  if (col.notNull) sql += ' NOT NULL';
  if (col.autoIncrement && dialect === 'mysql') sql += ' AUTO_INCREMENT';
  return sql;
}

function foreignKeySql(fk: ForeignKeyDef, dialect: DdlDialect): string {
  const body = `FOREIGN KEY(${list(fk.columns, dialect)}) REFERENCES ${quote(fk.refTable, dialect)} (${list(fk.refColumns, dialect)})`;
  if (dialect === 'mysql' || fk.sqliteNamed) return `CONSTRAINT ${quote(fk.name, dialect)} ${body}`;
  return body;
}

/** CREATE TABLE with keys and foreign keys inline (MySQL needs FOREIGN_KEY_CHECKS=0 for forward references). */
export function createTableSql(table: TableDef, dialect: DdlDialect): string {
  const parts = table.columns.map((c) => columnSql(c, dialect));
  parts.push(`PRIMARY KEY (${list(table.primaryKey, dialect)})`);
  for (const u of table.uniques ?? []) parts.push(`CONSTRAINT ${quote(u.name, dialect)} UNIQUE (${list(u.columns, dialect)})`);
  if (dialect === 'mysql') {
    for (const k of [...(table.mysqlKeys ?? []), ...(table.indexes ?? [])]) {
      parts.push(`KEY ${quote(k.name, dialect)} (${list(k.columns, dialect)})`);
    }
  }
  for (const fk of table.foreignKeys ?? []) parts.push(foreignKeySql(fk, dialect));
  const head = `CREATE TABLE ${quote(table.name, dialect)} (\n\t${parts.join(',\n\t')}\n)`;
  if (dialect === 'sqlite') return head;
  return `${head} ENGINE=InnoDB DEFAULT CHARSET=${table.charset ?? 'utf8mb4'} COLLATE=${table.charset === 'utf8mb3' ? 'utf8mb3_general_ci' : 'utf8mb4_unicode_ci'}`;
}

export function indexStatements(table: TableDef, dialect: DdlDialect): string[] {
  if (dialect === 'mysql') return [];
  return (table.indexes ?? []).map((i) =>
    `CREATE INDEX ${quote(i.name, dialect)} ON ${quote(table.name, dialect)} (${list(i.columns, dialect)})`);
}

type RunSql = (sql: string) => Promise<unknown>;

/**
 * Runs `fn` with every statement on one connection. MySQL session settings (FOREIGN_KEY_CHECKS)
 * must stay on the connection that issues the DDL, and DDL there cannot live in a transaction.
 */
async function onOneConnection(knex: Knex, fn: (run: RunSql) => Promise<void>): Promise<void> {
  if (dialectOf(knex) !== 'mysql' || knex.isTransaction) {
    await fn((sql) => knex.raw(sql));
    return;
  }
  const conn: unknown = await knex.client.acquireConnection();
  try {
    await fn((sql) => knex.raw(sql).connection(conn));
  } finally {
    await knex.client.releaseConnection(conn);
  }
}

/** Creates the tables and their indexes; tables may reference each other in any order. */
export async function createTables(knex: Knex, tables: TableDef[]): Promise<void> {
  const dialect = dialectOf(knex);
  await onOneConnection(knex, async (run) => {
    if (dialect === 'mysql') await run('SET FOREIGN_KEY_CHECKS = 0');
    try {
      for (const t of tables) {
        await run(createTableSql(t, dialect));
        for (const stmt of indexStatements(t, dialect)) await run(stmt);
      }
    } finally {
      if (dialect === 'mysql') await run('SET FOREIGN_KEY_CHECKS = 1');
    }
  });
}

export async function addColumnIfMissing(knex: Knex, table: string, col: ColumnDef): Promise<void> {
  if (await knex.schema.hasColumn(table, col.name)) return;
  const dialect = dialectOf(knex);
  await knex.raw(`ALTER TABLE ${quote(table, dialect)} ADD COLUMN ${columnSql(col, dialect)}`);
}

export async function createTableIfMissing(knex: Knex, table: TableDef): Promise<void> {
  if (await knex.schema.hasTable(table.name)) return;
  await createTables(knex, [table]);
}

export async function indexExists(knex: Knex, table: string, index: string): Promise<boolean> {
  if (dialectOf(knex) === 'mysql') {
    const [rows] = await knex.raw('SHOW INDEX FROM ?? WHERE Key_name = ?', [table, index]) as [unknown[]];
    return rows.length > 0;
  }
  const rows = await knex.raw("SELECT name FROM sqlite_master WHERE type = 'index' AND name = ?", [index]) as unknown[];
  return rows.length > 0;
}

export async function createIndexIfMissing(knex: Knex, table: string, index: string, columns: string[]): Promise<void> {
  if (await indexExists(knex, table, index)) return;
  const dialect = dialectOf(knex);
  await knex.raw(`CREATE INDEX ${quote(index, dialect)} ON ${quote(table, dialect)} (${list(columns, dialect)})`);
}
