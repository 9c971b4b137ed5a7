/**
 * Migration 3 (MySQL/MariaDB only): converts Ironic's tables from utf8mb3 to utf8mb4 as upstream
 * alembic c1fd28861bb9 does, then restores TEXT columns the conversion promoted to MEDIUMTEXT.
 * Tables already in utf8mb4 (a database from a newer Ironic) are left alone. SQLite: no-op.
 */
import type { Knex } from 'knex';
import { dialectOf } from './lib/ddl';

const TABLES = ['chassis', 'conductors', 'conductor_hardware_interfaces', 'nodes', 'ports', 'portgroups',
  'node_tags', 'volume_connectors', 'volume_targets', 'node_traits', 'bios_settings', 'allocations',
  'deploy_templates', 'deploy_template_steps', 'node_history', 'node_inventory', 'firmware_information',
  'runbooks', 'runbook_steps', 'runbook_traits', 'inspection_rules'];

interface TextColumn { TABLE_NAME: string; COLUMN_NAME: string; IS_NULLABLE: string }

async function tablesToConvert(knex: Knex): Promise<string[]> {
  const [rows] = await knex.raw(
    `SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()
       AND TABLE_NAME IN (${TABLES.map(() => '?').join(', ')}) AND TABLE_COLLATION NOT LIKE 'utf8mb4%'`,
    TABLES) as [Array<{ TABLE_NAME: string }>];
  return rows.map((r) => r.TABLE_NAME);
}

async function textColumns(knex: Knex, table: string): Promise<TextColumn[]> {
  const [rows] = await knex.raw(
    `SELECT TABLE_NAME, COLUMN_NAME, IS_NULLABLE FROM information_schema.COLUMNS
      WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND DATA_TYPE = 'text'`, [table]) as [TextColumn[]];
  return rows;
}

export async function up(knex: Knex): Promise<void> {
  if (dialectOf(knex) !== 'mysql') return;
  for (const table of await tablesToConvert(knex)) {
    const texts = await textColumns(knex, table);
    await knex.raw(`ALTER TABLE \`${table}\` CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    if (texts.length === 0) continue;
    const modify = texts.map((c) =>
      `MODIFY COLUMN \`${c.COLUMN_NAME}\` TEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci ${c.IS_NULLABLE === 'YES' ? 'NULL' : 'NOT NULL'}`);
    await knex.raw(`ALTER TABLE \`${table}\` ${modify.join(', ')}`);
  }
}

export async function down(): Promise<void> {
  // Converting back could truncate 4-byte characters; keep utf8mb4.
}
