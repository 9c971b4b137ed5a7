import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { openDatabase } from '../../src/db/connection';
import { SchemaVersionError } from '../../src/db/errors';
import { createSchema, describeVersion, upgrade, version } from '../../src/db/sync';
import { BACKENDS, mysqlAvailable, withScratchDb } from './harness';

const EXPECTED_TABLES = ['alembic_version', 'allocations', 'bios_settings', 'chassis', 'conductor_hardware_interfaces',
  'conductors', 'deploy_template_steps', 'deploy_templates', 'firmware_information', 'inspection_rules',
  'node_history', 'node_inventory', 'node_tags', 'node_traits', 'nodes', 'portgroups', 'ports', 'runbook_steps',
  'runbook_traits', 'runbooks', 'volume_connectors', 'volume_targets'];

for (const kind of BACKENDS) {
  describe(`migrations on ${kind}`, async () => {
    const skip = kind === 'mysql' && !(await mysqlAvailable()) ? 'MariaDB not reachable on 127.0.0.1:3306' : false;

    test('upgrade from empty creates every Ironic table, stamps alembic, and is idempotent', { skip }, async () => {
      await withScratchDb(kind, async (scratch) => {
        const db = await openDatabase(scratch.url);
        try {
          if (kind === 'sqlite') assert.ok(existsSync(scratch.location), 'parent directory and file created');
          assert.deepEqual(await version(db), { head: null, alembic: null, pending: [] });
          const applied = await upgrade(db);
          assert.deepEqual(applied, ['0001_ironic_21_4_4.js', '0002_ironic_later_additions.js', '0003_mysql_utf8mb4.js']);
          for (const table of EXPECTED_TABLES) assert.ok(await db.knex.schema.hasTable(table), table);
          const v = await version(db);
          assert.equal(v.head, '0003_mysql_utf8mb4');
          assert.equal(v.alembic, '4dbec778866e');
          assert.deepEqual(v.pending, []);
          assert.equal(describeVersion(v), '0003_mysql_utf8mb4 (alembic 4dbec778866e)');
          assert.deepEqual(await upgrade(db), [], 'second upgrade does nothing');
          await assert.rejects(createSchema(db), SchemaVersionError);
        } finally {
          await db.close();
        }
      });
    });

    test('adoption refuses alembic revisions older than 21.4.4 or unknown ones', { skip }, async () => {
      for (const revision of ['9ef41f07cb58', 'deadbeef0000']) {
        await withScratchDb(kind, async (scratch) => {
          const db = await openDatabase(scratch.url);
          try {
            await db.knex.schema.createTable('alembic_version', (t) => { t.string('version_num', 32).primary(); });
            await db.knex('alembic_version').insert({ version_num: revision });
            await assert.rejects(upgrade(db), (e: unknown) => e instanceof SchemaVersionError && e.message.includes(revision));
            assert.equal(await db.knex.schema.hasTable('nodes'), false, 'nothing created');
          } finally {
            await db.close();
          }
        });
      }
    });

    test('adopting a database from an Ironic newer than 21.4.4 skips what already exists', { skip }, async () => {
      await withScratchDb(kind, async (scratch) => {
        let db = await openDatabase(scratch.url);
        try {
          await upgrade(db);
          await db.knex('nodes').insert({ uuid: '3be26c0b-03f2-4d2e-ae87-c02d7f33c123', health: 'OK' });
          // Make it look like upstream Ironic's own database at its newest revision.
          await db.knex.schema.dropTable('knex_migrations');
          await db.knex.schema.dropTable('knex_migrations_lock');
          await db.knex('alembic_version').update({ version_num: '9fb44677ef15' });
          await db.close();
          db = await openDatabase(scratch.url);
          assert.deepEqual(await upgrade(db), ['0002_ironic_later_additions.js', '0003_mysql_utf8mb4.js']);
          assert.equal((await db.knex('nodes').first('health')).health, 'OK');
        } finally {
          await db.close();
        }
      });
    });

    test('createSchema on an empty database, then defaults Ironic relies on', { skip }, async () => {
      await withScratchDb(kind, async (scratch) => {
        const db = await openDatabase(scratch.url);
        try {
          await createSchema(db);
          // Server defaults matter for rows Python Ironic 21.4.4 inserts without the newer columns.
          await db.knex('nodes').insert({ uuid: '1be26c0b-03f2-4d2e-ae87-c02d7f33c123', driver: 'fake-hardware' });
          await db.knex('ports').insert({ uuid: '2be26c0b-03f2-4d2e-ae87-c02d7f33c123', address: '52:54:00:00:00:01' });
          const node = await db.knex('nodes').first('conductor_group', 'protected', 'retired', 'disable_power_off');
          assert.deepEqual({ ...node }, { conductor_group: '', protected: 0, retired: 0, disable_power_off: 0 });
          const port = await db.knex('ports').first('available_for_dynamic_portgroup');
          assert.equal(Number(port.available_for_dynamic_portgroup), 1);
        } finally {
          await db.close();
        }
      });
    });
  });
}
