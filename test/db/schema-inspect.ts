/** Reads a database's tables, columns and index names in a dialect-neutral form for comparison. */
import type { Database } from '../../src/db/connection';

export interface ColumnInfo {
  type: string;
  nullable: boolean;
  default: string | null;
}

export interface SchemaInfo {
  columns: Map<string, Map<string, ColumnInfo>>;
  indexes: Map<string, Set<string>>;
}

function normaliseType(type: string): string {
  return type.toLowerCase().replace(/^int\(\d+\)$/, 'int').replace(/^integer$/, 'int').replace(/^bigint(\(\d+\))?$/, 'bigint')
    .replace(/^tinyint\(1\)$/, 'bool').replace(/^boolean$/, 'bool');
}

function normaliseDefault(value: unknown): string | null {
  if (value === null || value === undefined || value === 'NULL') return null;
  return String(value).replace(/^\((.*)\)$/, '$1').replace(/^'(.*)'$/, '$1');
}

async function sqliteSchema(db: Database): Promise<SchemaInfo> {
  const tables = await db.knex('sqlite_master').where({ type: 'table' }).whereNot('name', 'like', 'sqlite_%')
    .whereNot('name', 'like', 'knex_%').pluck('name') as string[];
  const info: SchemaInfo = { columns: new Map(), indexes: new Map() };
  for (const table of tables) {
    const cols = await db.knex.raw(`PRAGMA table_info("${table}")`) as
      Array<{ name: string; type: string; notnull: number; dflt_value: unknown; pk: number }>;
    info.columns.set(table, new Map(cols.map((c) => [c.name, {
      type: normaliseType(c.type), nullable: c.notnull === 0 && c.pk === 0, default: normaliseDefault(c.dflt_value),
    }])));
    const idx = await db.knex.raw(`PRAGMA index_list("${table}")`) as Array<{ name: string; origin: string }>;
    const names = new Set<string>();
    for (const i of idx.filter((x) => x.origin !== 'pk')) {
      // Unique constraints become sqlite_autoindex_<table>_<n>; name them by their columns instead.
      if (i.origin !== 'u') { names.add(i.name); continue; }
      const cols = await db.knex.raw(`PRAGMA index_info("${i.name}")`) as Array<{ name: string }>;
      names.add(`unique(${cols.map((c) => c.name).join(',')})`);
    }
    info.indexes.set(table, names);
  }
  return info;
}

async function mysqlSchema(db: Database): Promise<SchemaInfo> {
  const [cols] = await db.knex.raw(
    `SELECT TABLE_NAME t, COLUMN_NAME c, COLUMN_TYPE ty, IS_NULLABLE n, COLUMN_DEFAULT d FROM information_schema.COLUMNS
      WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME NOT LIKE 'knex_%'`) as
    [Array<{ t: string; c: string; ty: string; n: string; d: unknown }>];
  const info: SchemaInfo = { columns: new Map(), indexes: new Map() };
  for (const c of cols) {
    const table = info.columns.get(c.t) ?? new Map<string, ColumnInfo>();
    table.set(c.c, { type: normaliseType(c.ty), nullable: c.n === 'YES', default: normaliseDefault(c.d) });
    info.columns.set(c.t, table);
  }
  const [idx] = await db.knex.raw(
    `SELECT DISTINCT TABLE_NAME t, INDEX_NAME i FROM information_schema.STATISTICS
      WHERE TABLE_SCHEMA = DATABASE() AND INDEX_NAME <> 'PRIMARY' AND TABLE_NAME NOT LIKE 'knex_%'`) as
    [Array<{ t: string; i: string }>];
  for (const i of idx) {
    const set = info.indexes.get(i.t) ?? new Set<string>();
    set.add(i.i);
    info.indexes.set(i.t, set);
  }
  return info;
}

export function inspectSchema(db: Database): Promise<SchemaInfo> {
  return db.dialect === 'sqlite' ? sqliteSchema(db) : mysqlSchema(db);
}
