/**
 * Opens the database named by `[database]connection` and tunes each connection the way
 * Ironic's deployments expect: SQLite in WAL mode with a busy timeout, MySQL in UTC with utf8mb4
 * and a pool that drops connections the server has closed (e.g. after a restart).
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import knexFactory, { Knex } from 'knex';
import type { Dialect } from './codec';
import { DatabaseTarget, knexConfigFor, parseDatabaseUrl } from './url';

interface OpenOptions {
  /** SQLite busy_timeout in ms (default 10000). */
  busyTimeoutMs?: number;
  /** MySQL pool bounds (default 0..10). */
  poolMin?: number;
  poolMax?: number;
}

export interface Database {
  readonly knex: Knex;
  readonly dialect: Dialect;
  readonly target: DatabaseTarget;
  /** Runs `fn` in one transaction: commits on return, rolls back on throw. */
  transaction<T>(fn: (trx: Knex.Transaction) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

interface SqliteConnection {
  pragma(source: string): unknown;
  prepare(sql: string): unknown;
}

/** Upper bound of each SQLite connection's page cache, in KiB. */
const SQLITE_CACHE_KIB = 64 * 1024;

/** Most statements repeat (same SQL, new bindings); knex prepares every query, so keep them. */
const STATEMENT_CACHE_SIZE = 256;

function cachePreparedStatements(conn: SqliteConnection): void {
  const prepare = conn.prepare.bind(conn);
  const cache = new Map<string, unknown>();
  conn.prepare = (sql: string): unknown => {
    let statement = cache.get(sql);
    if (statement === undefined) {
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.clear();
      statement = prepare(sql);
      cache.set(sql, statement);
    }
    return statement;
  };
}

interface MysqlConnection {
  query(sql: string, cb: (err: Error | null) => void): void;
}

type Done = (err: Error | null, conn: unknown) => void;

function sqliteConfig(config: Knex.Config, filename: string, opts: OpenOptions): Knex.Config {
  if (filename !== ':memory:') mkdirSync(dirname(filename), { recursive: true });
  const busy = opts.busyTimeoutMs ?? 10000;
  return {
    ...config,
    pool: {
      // An in-memory database exists per connection, so it must be exactly one, never recycled.
      min: 1, max: 1, idleTimeoutMillis: Number.MAX_SAFE_INTEGER,
      afterCreate(conn: SqliteConnection, done: Done) {
        try {
          conn.pragma(`busy_timeout = ${busy}`);
          if (filename !== ':memory:') conn.pragma('journal_mode = WAL');
          conn.pragma('synchronous = NORMAL');
          // SQLite's default 2 MiB page cache cannot hold a 10,000-node table, so every list page
          // was read again through the OS; the cache only grows as pages are used.
          conn.pragma(`cache_size = -${SQLITE_CACHE_KIB}`);
          cachePreparedStatements(conn);
          done(null, conn);
        } catch (err) {
          done(err as Error, conn);
        }
      },
    },
  };
}

function mysqlConfig(config: Knex.Config, opts: OpenOptions): Knex.Config {
  return {
    ...config,
    pool: {
      min: opts.poolMin ?? 0, max: opts.poolMax ?? 10,
      // After a server restart or KILL, mysql2 flags the connection (protocol error on socket close)
      // and knex's pool validation discards it, so the next query gets a fresh connection. Only a
      // query already in flight on the dying socket fails. (Destroying the connection ourselves on
      // 'end' would strand such a query forever: mysql2 then never rejects it.)
      idleTimeoutMillis: 30000,
      afterCreate(conn: MysqlConnection, done: Done) {
        conn.query("SET time_zone = '+00:00'", (err) => done(err, conn));
      },
    },
  };
}

export async function openDatabase(url: string, opts: OpenOptions = {}): Promise<Database> {
  const target = parseDatabaseUrl(url);
  const base = knexConfigFor(target);
  const config = target.dialect === 'sqlite'
    ? sqliteConfig(base, target.filename, opts)
    : mysqlConfig(base, opts);
  const knex = knexFactory(config);
  try {
    await knex.raw('SELECT 1');
  } catch (err) {
    await knex.destroy();
    throw err;
  }
  return {
    knex,
    dialect: target.dialect,
    target,
    transaction: <T>(fn: (trx: Knex.Transaction) => Promise<T>) => knex.transaction(fn),
    close: () => knex.destroy(),
  };
}
