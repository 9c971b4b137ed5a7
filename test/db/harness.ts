/**
 * Test backends for the database layer: a temp-file SQLite database and a throwaway MariaDB
 * database (127.0.0.1:3306 root, `ironicts_dbtest_<random>`), each dropped afterwards.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import knexFactory from 'knex';
import { openDatabase, Database } from '../../src/db/connection';
import { upgrade } from '../../src/db/sync';

export type BackendKind = 'sqlite' | 'mysql';
export const BACKENDS: BackendKind[] = ['sqlite', 'mysql'];

export interface ScratchDb {
  url: string;
  /** Name of the MySQL database, or the SQLite file path. */
  location: string;
  drop(): Promise<void>;
}

const MYSQL_ADMIN = { host: '127.0.0.1', port: 3306, user: 'root', password: '' };

async function mysqlAdmin<T>(fn: (k: ReturnType<typeof knexFactory>) => Promise<T>): Promise<T> {
  const k = knexFactory({ client: 'mysql2', connection: MYSQL_ADMIN, pool: { min: 0, max: 1 } });
  try { return await fn(k); } finally { await k.destroy(); }
}

let mysqlUp: boolean | undefined;
export async function mysqlAvailable(): Promise<boolean> {
  if (mysqlUp === undefined) {
    mysqlUp = await mysqlAdmin(async (k) => { await k.raw('SELECT 1'); return true; }).catch(() => false);
  }
  return mysqlUp;
}

/** Runs `fn` on an empty database of the given kind and always drops it afterwards. */
export async function withScratchDb<T>(kind: BackendKind, fn: (scratch: ScratchDb) => Promise<T>): Promise<T> {
  const scratch = await scratchDb(kind);
  try {
    return await fn(scratch);
  } finally {
    await scratch.drop();
  }
}

/** An empty database of the given kind. */
export async function scratchDb(kind: BackendKind): Promise<ScratchDb> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'ironicts-dbtest-'));
    const file = join(dir, 'sub', 'ironic.sqlite');
    return { url: `sqlite:///${file}`, location: file, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `ironicts_dbtest_${randomBytes(6).toString('hex')}`;
  await mysqlAdmin((k) => k.raw(`CREATE DATABASE \`${name}\``));
  return {
    url: `mysql+pymysql://root@127.0.0.1:3306/${name}?charset=utf8mb4`,
    location: name,
    drop: () => mysqlAdmin(async (k) => { await k.raw(`DROP DATABASE IF EXISTS \`${name}\``); }),
  };
}

export interface Fixture {
  db: Database;
  scratch: ScratchDb;
  close(): Promise<void>;
}

/** A migrated database, open; close() also drops it. */
export async function migratedDb(kind: BackendKind): Promise<Fixture> {
  const scratch = await scratchDb(kind);
  let db: Database | undefined;
  try {
    db = await openDatabase(scratch.url);
    await upgrade(db);
  } catch (err) {
    await db?.close();
    await scratch.drop();
    throw err;
  }
  const opened = db;
  return { db: opened, scratch, close: async () => { await opened.close(); await scratch.drop(); } };
}
