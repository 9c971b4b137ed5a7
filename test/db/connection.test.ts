import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import knexFactory from 'knex';
import { openDatabase } from '../../src/db/connection';
import { mysqlAvailable, withScratchDb } from './harness';

describe('openDatabase', async () => {
  const noMysql = !(await mysqlAvailable()) ? 'MariaDB not reachable' : false;

  test('SQLite: creates the parent directory, WAL mode, busy timeout, a 64 MiB page cache', async () => {
    await withScratchDb('sqlite', async (scratch) => {
      const db = await openDatabase(scratch.url, { busyTimeoutMs: 1234 });
      try {
        assert.equal(db.dialect, 'sqlite');
        const [mode] = await db.knex.raw('PRAGMA journal_mode') as Array<{ journal_mode: string }>;
        assert.equal(mode.journal_mode, 'wal');
        const [busy] = await db.knex.raw('PRAGMA busy_timeout') as Array<{ timeout: number }>;
        assert.equal(busy.timeout, 1234);
        const [cache] = await db.knex.raw('PRAGMA cache_size') as Array<{ cache_size: number }>;
        assert.equal(cache.cache_size, -65536, 'negative: a size in KiB');
      } finally {
        await db.close();
      }
    });
  });

  test('SQLite in memory keeps its data on its single connection', async () => {
    const db = await openDatabase('sqlite://');
    try {
      await db.knex.raw('CREATE TABLE t (x INTEGER)');
      await db.knex('t').insert({ x: 1 });
      assert.equal((await db.knex('t').select('x')).length, 1);
    } finally {
      await db.close();
    }
  });

  test('MySQL: UTC session, utf8mb4, and recovery after the server drops the connection', { skip: noMysql, timeout: 30000 }, async () => {
    await withScratchDb('mysql', async (scratch) => {
      const db = await openDatabase(scratch.url, { poolMax: 1 });
      const admin = knexFactory({ client: 'mysql2', connection: { host: '127.0.0.1', user: 'root' }, pool: { min: 0, max: 1 } });
      try {
        const [[tz]] = await db.knex.raw('SELECT @@session.time_zone AS tz, @@character_set_client AS cs') as
          [Array<{ tz: string; cs: string }>];
        assert.deepEqual({ ...tz }, { tz: '+00:00', cs: 'utf8mb4' });
        const [[before]] = await db.knex.raw('SELECT CONNECTION_ID() AS id') as [Array<{ id: number }>];
        await admin.raw(`KILL CONNECTION ${Number(before.id)}`);
        // The pool notices the dead socket (as after a server restart) and hands out a fresh connection.
        let after: { id: number } | undefined;
        for (let attempt = 0; attempt < 2 && !after; attempt++) {
          try {
            [[after]] = await db.knex.raw('SELECT CONNECTION_ID() AS id') as [Array<{ id: number }>];
          } catch (err) {
            assert.match(String((err as Error).message), /closed|ended|lost|killed|ECONNRESET|EPIPE|terminated/i);
          }
        }
        assert.ok(after, 'reconnected');
        assert.notEqual(after.id, before.id);
      } finally {
        await admin.destroy();
        await db.close();
      }
    });
  });
});
