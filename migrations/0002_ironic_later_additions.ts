/**
 * Migration 2: what Ironic added after 21.4.4, up to upstream alembic head 9fb44677ef15.
 * Every new column is nullable or has a server default, so Python Ironic 21.4.4 keeps working
 * against the upgraded database. Each step is skipped when already present, because an adopted
 * database may come from an Ironic newer than 21.4.4.
 */
import type { Knex } from 'knex';
import {
  ColumnDef, TableDef, addColumnIfMissing, createIndexIfMissing, createTableIfMissing, dialectOf,
} from './lib/ddl';

const str = (name: string, len: number): ColumnDef => ({ name, type: `varchar(${len})` });
const dt = (name: string): ColumnDef => ({ name, type: 'datetime' });
const base: ColumnDef[] = [dt('created_at'), dt('updated_at'), { name: 'version', type: 'varchar(15)' }];
const id: ColumnDef = { name: 'id', type: 'int', notNull: true, autoIncrement: true };

const NEW_COLUMNS: Array<[string, ColumnDef]> = [
  ['nodes', str('parent_node', 36)],                                            // fe222f476baf
  ['nodes', str('firmware_interface', 255)],                                    // 163040c5513f
  ['nodes', { name: 'service_step', type: 'text' }],                            // aa2384fee727
  ['nodes', { name: 'disable_power_off', type: 'bool', serverDefault: '0' }],   // 6e9cf6acce0b
  ['ports', str('description', 255)],                                           // 1c14278d6e33
  ['ports', str('vendor', 32)],                                                 // e4827561979d
  ['ports', str('category', 80)],                                               // 3ef27505c9fb
  ['portgroups', str('physical_network', 64)],                                  // d0821744f9e2
  ['portgroups', str('category', 80)],                                          // 763b2f62d215
  ['nodes', str('instance_name', 255)],                                         // 15e9d00367b0
  ['nodes', str('health', 32)],                                                 // 9f8c7d6e5b4a
  ['ports', { name: 'available_for_dynamic_portgroup', type: 'bool', notNull: true, serverDefault: '1' }],
  ['portgroups', { name: 'dynamic_portgroup', type: 'bool' }],                  // 2a3b4c5d6e7f
  ['node_history', str('project', 80)],                                         // 16990309ad9d
  ['node_history', str('state', 255)],                                          // 9fb44677ef15
  ['node_history', str('target_provision_state', 255)],
  ['node_history', { name: 'duration_seconds', type: 'int' }],
];

const FIRMWARE_INFORMATION: TableDef = {
  name: 'firmware_information',
  columns: [dt('created_at'), dt('updated_at'), id, { name: 'node_id', type: 'int', notNull: true },
    { name: 'component', type: 'varchar(255)', notNull: true },
    { name: 'initial_version', type: 'varchar(255)', notNull: true },
    str('current_version', 255), str('last_version_flashed', 255), { name: 'version', type: 'varchar(15)' }],
  primaryKey: ['id'],
  uniques: [{ name: 'uniq_nodecomponent0node_id0component', columns: ['node_id', 'component'] }],
  foreignKeys: [{ name: 'firmware_information_ibfk_1', columns: ['node_id'], refTable: 'nodes', refColumns: ['id'] }],
};

const RUNBOOKS: TableDef = {
  name: 'runbooks',
  columns: [...base, id, str('uuid', 36), { name: 'name', type: 'varchar(255)', notNull: true },
    { name: 'disable_ramdisk', type: 'bool' }, { name: 'public', type: 'bool' }, str('owner', 255),
    { name: 'extra', type: 'text' }],
  primaryKey: ['id'],
  uniques: [{ name: 'uniq_runbooks0uuid', columns: ['uuid'] }, { name: 'uniq_runbooks0name', columns: ['name'] }],
};

const RUNBOOK_STEPS: TableDef = {
  name: 'runbook_steps',
  columns: [...base, id, { name: 'runbook_id', type: 'int', notNull: true },
    { name: 'interface', type: 'varchar(255)', notNull: true }, { name: 'step', type: 'varchar(255)', notNull: true },
    { name: 'args', type: 'text', notNull: true }, { name: 'order', type: 'int', notNull: true }],
  primaryKey: ['id'],
  indexes: [{ name: 'runbook_id', columns: ['runbook_id'] },
    { name: 'runbook_steps_interface_idx', columns: ['interface'] },
    { name: 'runbook_steps_step_idx', columns: ['step'] }],
  foreignKeys: [{ name: 'runbook_steps_ibfk_1', columns: ['runbook_id'], refTable: 'runbooks', refColumns: ['id'] }],
};

const RUNBOOK_TRAITS: TableDef = {
  name: 'runbook_traits',
  columns: [...base, { name: 'runbook_id', type: 'int', notNull: true },
    { name: 'trait', type: 'varchar(255)', notNull: true }],
  primaryKey: ['runbook_id', 'trait'],
  indexes: [{ name: 'runbook_traits_idx', columns: ['trait'] }],
  foreignKeys: [{ name: 'runbook_traits_ibfk_1', columns: ['runbook_id'], refTable: 'runbooks', refColumns: ['id'] }],
  charset: 'utf8mb4',
};

const INSPECTION_RULES: TableDef = {
  name: 'inspection_rules',
  columns: [...base, id, { name: 'uuid', type: 'varchar(36)', notNull: true },
    { name: 'priority', type: 'int', notNull: true }, str('description', 255), str('scope', 255),
    { name: 'sensitive', type: 'bool' }, str('phase', 16), { name: 'conditions', type: 'longtext' },
    { name: 'actions', type: 'longtext', notNull: true }],
  primaryKey: ['id'],
  uniques: [{ name: 'uniq_inspection_rules0uuid', columns: ['uuid'] }],
  indexes: [{ name: 'inspection_rule_scope_idx', columns: ['scope'] },
    { name: 'inspection_rule_phase_idx', columns: ['phase'] }],
};

/** Widened columns (01f21d5e5195, 9c0446cb6bc3); SQLite does not enforce these sizes, so MySQL only. */
async function widenColumns(knex: Knex): Promise<void> {
  if (dialectOf(knex) !== 'mysql') return;
  await knex.raw('ALTER TABLE `node_history` MODIFY `user` varchar(64) NULL');
  await knex.raw('ALTER TABLE `bios_settings` MODIFY `lower_bound` bigint(20) NULL, MODIFY `upper_bound` bigint(20) NULL');
}

export async function up(knex: Knex): Promise<void> {
  for (const [table, column] of NEW_COLUMNS) await addColumnIfMissing(knex, table, column);
  await createIndexIfMissing(knex, 'nodes', 'parent_node_idx', ['parent_node']);
  await createTableIfMissing(knex, FIRMWARE_INFORMATION);
  for (const column of [str('vendor', 255), str('model', 255), str('serial_number', 255)]) {
    await addColumnIfMissing(knex, 'firmware_information', column);                // 772c0e7e8299
  }
  await createTableIfMissing(knex, RUNBOOKS);
  await createTableIfMissing(knex, RUNBOOK_STEPS);
  await addColumnIfMissing(knex, 'runbooks', str('description', 255));              // e2d316b60d9e
  await createTableIfMissing(knex, RUNBOOK_TRAITS);
  await createTableIfMissing(knex, INSPECTION_RULES);
  await widenColumns(knex);
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['runbook_traits', 'runbook_steps', 'runbooks', 'inspection_rules', 'firmware_information']) {
    await knex.schema.dropTableIfExists(table);
  }
  if (dialectOf(knex) === 'mysql') await knex.raw('DROP INDEX `parent_node_idx` ON `nodes`');
  else await knex.raw('DROP INDEX IF EXISTS "parent_node_idx"');
  for (const [table, column] of [...NEW_COLUMNS].reverse()) {
    if (await knex.schema.hasColumn(table, column.name)) {
      await knex.schema.alterTable(table, (t) => { t.dropColumn(column.name); });
    }
  }
}
