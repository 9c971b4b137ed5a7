/**
 * Converts between JS values and the stored representation of Ironic's columns,
 * driven by the column kinds in columns.ts.
 */
import { ColumnKind, INSERT_DEFAULTS, TABLES, TableName } from './columns';
import { pythonJsonDumps } from '../common/python/json-dumps';
import { pythonJsonLoads } from '../common/python/json-loads';
import { StoredJson } from './stored-json';

export type Dialect = 'sqlite' | 'mysql';
type DbValue = string | number | null;
type DbRow = Record<string, DbValue>;

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** SQLAlchemy stores SQLite DATETIME as 'YYYY-MM-DD HH:MM:SS.ffffff'; MySQL DATETIME has no fraction. */
export function encodeDate(date: Date, dialect: Dialect): string {
  const main = `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
  return dialect === 'sqlite' ? `${main}.${pad(date.getUTCMilliseconds() * 1000, 6)}` : main;
}

export function decodeDate(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value;
  const m = /^(\d{4})-(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?/.exec(String(value));
  if (!m) return null;
  const ms = m[7] ? Math.floor(Number(m[7].padEnd(6, '0')) / 1000) : 0;
  return new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6], ms));
}

function encodeValue(kind: ColumnKind, value: unknown, dialect: Dialect): DbValue {
  switch (kind) {
    case 'dict':
      return pythonJsonDumps(value ?? {});
    case 'list':
      return pythonJsonDumps(value ?? []);
    case 'bool':
      return value === null || value === undefined ? null : value ? 1 : 0;
    case 'datetime':
      if (value === null || value === undefined) return null;
      return encodeDate(value instanceof Date ? value : new Date(String(value)), dialect);
    case 'int':
      return value === null || value === undefined ? null : Number(value);
    case 'str':
      return value === null || value === undefined ? null : String(value);
  }
}

function decodeValue(kind: ColumnKind, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case 'dict':
    case 'list':
      return pythonJsonLoads(String(value));
    case 'bool':
      return value === true || value === 1 || value === '1' || value === 1n;
    case 'datetime':
      return decodeDate(value);
    case 'int':
      return Number(value);
    case 'str':
      return Buffer.isBuffer(value) ? value.toString('utf8') : String(value);
  }
}

/** Encodes the known columns of `values` for `table`; unknown keys are an error (typos must not vanish). */
export function encodeRow(table: TableName, values: Record<string, unknown>, dialect: Dialect): DbRow {
  const spec: Readonly<Record<string, ColumnKind>> = TABLES[table];
  const row: DbRow = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const kind = Object.hasOwn(spec, key) ? spec[key] : undefined;
    if (kind === undefined) throw new TypeError(`${table} has no column ${key}`);
    row[key] = encodeValue(kind, value, dialect);
  }
  return row;
}

/** Row for INSERT: Ironic's Python-side defaults, then the caller's values, plus created_at. */
export function encodeInsert(table: TableName, values: Record<string, unknown>, dialect: Dialect,
  now: Date): DbRow {
  const merged: Record<string, unknown> = { ...(INSERT_DEFAULTS[table] ?? {}), ...values };
  if (merged.created_at === undefined || merged.created_at === null) merged.created_at = now;
  return encodeRow(table, merged, dialect);
}

const specEntries = new Map<TableName, ReadonlyArray<readonly [string, ColumnKind]>>();

/** A table's [column, kind] pairs, computed once: decodeRow runs for every row of every page. */
function columnsOf(table: TableName): ReadonlyArray<readonly [string, ColumnKind]> {
  let entries = specEntries.get(table);
  if (!entries) {
    entries = Object.entries(TABLES[table] as Readonly<Record<string, ColumnKind>>);
    specEntries.set(table, entries);
  }
  return entries;
}

/** A JSON column kept as its stored text (see StoredJson); a stored 'null' reads as NULL. */
function storedJson(value: unknown): StoredJson | null {
  const text = Buffer.isBuffer(value) ? value.toString('utf8') : String(value);
  return text === 'null' ? null : new StoredJson(text);
}

/** `storedJson`: leave dict/list columns as their stored text, for rows that are only passed on. */
export function decodeRow<R>(table: TableName, row: Record<string, unknown>, opts: { storedJson?: boolean } = {}): R {
  const out: Record<string, unknown> = {};
  for (const [key, kind] of columnsOf(table)) {
    const value = row[key];
    if (value === null || value === undefined) out[key] = null;
    else if (opts.storedJson && (kind === 'dict' || kind === 'list')) out[key] = storedJson(value);
    else out[key] = decodeValue(kind, value);
  }
  return out as R;
}
