/**
 * Migration 1: the schema Ironic 21.4.4 reaches at its alembic head. A fresh database also gets
 * `alembic_version` stamped with that head, so Python Ironic 21.4.4 can run against it (rollback).
 * Databases created by Python Ironic are adopted by sync.ts, which marks this migration applied.
 */
import type { Knex } from 'knex';
import { createTables, dialectOf } from './lib/ddl';
import { ALEMBIC_VERSION_TABLE, IRONIC_21_4_4_ALEMBIC_HEAD, IRONIC_21_4_4_TABLES } from './lib/ironic-21.4.4';

export async function up(knex: Knex): Promise<void> {
  await createTables(knex, [...IRONIC_21_4_4_TABLES, ALEMBIC_VERSION_TABLE]);
  await knex('alembic_version').insert({ version_num: IRONIC_21_4_4_ALEMBIC_HEAD });
}

export async function down(knex: Knex): Promise<void> {
  // Reverse dependency order; MySQL also needs the cross-table FKs gone first.
  if (dialectOf(knex) === 'mysql') {
    // nodes and allocations reference each other: drop those foreign keys first.
    await knex.raw('ALTER TABLE `nodes` DROP FOREIGN KEY `nodes_ibfk_2`');
  }
  for (const table of [...IRONIC_21_4_4_TABLES].reverse()) await knex.schema.dropTableIfExists(table.name);
  await knex.schema.dropTableIfExists(ALEMBIC_VERSION_TABLE.name);
}
