/**
 * selectArrays against knex's own rows: the same values in the requested column order, on SQLite
 * (json_array-packed rows) and MariaDB (rowsAsArray), for text with quotes, control characters and
 * non-ASCII, integers, booleans, dates and NULLs, and with the query's filters, order and limit kept.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { selectArrays } from '../../src/db/raw-select';
import * as nodes from '../../src/db/repositories/nodes';
import { BACKENDS, Fixture, migratedDb, mysqlAvailable } from './harness';

const COLUMNS = ['id', 'uuid', 'name', 'description', 'maintenance', 'driver_info', 'created_at', 'chassis_id', 'fault'];

for (const kind of BACKENDS) {
  describe(`selectArrays on ${kind}`, async () => {
    const skip = kind === 'mysql' && !(await mysqlAvailable()) ? 'MariaDB not reachable' : false;
    let fx: Fixture;
    before(async () => {
      if (skip) return;
      fx = await migratedDb(kind);
      await nodes.create(fx.db, { driver: 'fake-hardware', name: 'a', description: 'q"uote\\ \u0001\t\u00e9\ud83d\ude00' });
      await nodes.create(fx.db, { driver: 'fake-hardware', name: 'b', maintenance: true, driver_info: { k: 'v\n' } });
      await nodes.create(fx.db, { driver: 'fake-hardware', name: 'c', fault: 'power failure' });
    });
    after(async () => { if (!skip) await fx.close(); });

    test('rows hold the values knex reads, in the requested column order', { skip }, async () => {
      const query = fx.db.knex('nodes').select('*').whereNot({ name: 'c' }).orderBy('id', 'desc').limit(5);
      const page = await selectArrays(fx.db, query, COLUMNS.map((c) => `nodes.${c}`));
      const expected = await fx.db.knex('nodes').select(COLUMNS).whereNot({ name: 'c' }).orderBy('id', 'desc').limit(5) as
        Array<Record<string, unknown>>;
      assert.deepEqual(page.columns, COLUMNS);
      assert.equal(page.rows.length, 2);
      assert.deepEqual(page.rows, expected.map((row) => COLUMNS.map((c) => row[c])));
      assert.equal(page.rows[1][3], 'q"uote\\ \u0001\t\u00e9\ud83d\ude00');
      assert.equal(page.rows[0][2], 'b');
      assert.equal(page.rows[1][7], null);
    });

    test('the query builder passed in is left as it was', { skip }, async () => {
      const query = fx.db.knex('nodes').select('name').orderBy('id');
      await selectArrays(fx.db, query, ['nodes.id']);
      assert.deepEqual((await query as Array<{ name: string }>).map((r) => r.name), ['a', 'b', 'c']);
    });
  });
}
