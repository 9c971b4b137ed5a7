/**
 * Ironic 21.4.4's schema at its alembic head (4dbec778866e), frozen. Column order follows the
 * models (what create_schema emits); MySQL key and foreign-key names follow what the alembic
 * history leaves on MariaDB, so both creation paths give the same database.
 */
import type { ColumnDef, TableDef } from './ddl';

export const IRONIC_21_4_4_ALEMBIC_HEAD = '4dbec778866e';

const str = (name: string, len: number, extra: Partial<ColumnDef> = {}): ColumnDef =>
  ({ name, type: `varchar(${len})`, ...extra });
const int = (name: string, extra: Partial<ColumnDef> = {}): ColumnDef => ({ name, type: 'int', ...extra });
const text = (name: string, extra: Partial<ColumnDef> = {}): ColumnDef => ({ name, type: 'text', ...extra });
const bool = (name: string, extra: Partial<ColumnDef> = {}): ColumnDef => ({ name, type: 'bool', ...extra });
const dt = (name: string): ColumnDef => ({ name, type: 'datetime' });
const id: ColumnDef = { name: 'id', type: 'int', notNull: true, autoIncrement: true };
const base: ColumnDef[] = [dt('created_at'), dt('updated_at'), str('version', 15)];

const fk = (name: string, column: string, refTable: string, sqliteNamed = false) =>
  ({ name, columns: [column], refTable, refColumns: ['id'], sqliteNamed });
const uniq = (name: string, ...columns: string[]) => ({ name, columns });
const idx = (name: string, ...columns: string[]) => ({ name, columns });

const iface = (n: string): ColumnDef => str(`${n}_interface`, 255);

export const IRONIC_21_4_4_TABLES: TableDef[] = [
  {
    name: 'chassis',
    columns: [...base, id, str('uuid', 36), text('extra'), str('description', 255)],
    primaryKey: ['id'], uniques: [uniq('uniq_chassis0uuid', 'uuid')],
  },
  {
    name: 'conductors',
    columns: [...base, id, str('hostname', 255, { notNull: true }), text('drivers'), bool('online'),
      str('conductor_group', 255, { notNull: true, serverDefault: "''" })],
    primaryKey: ['id'], uniques: [uniq('uniq_conductors0hostname', 'hostname')],
  },
  {
    name: 'nodes',
    columns: [...base, id, str('uuid', 36), str('instance_uuid', 36), str('name', 255), int('chassis_id'),
      str('power_state', 15), str('target_power_state', 15), str('provision_state', 15),
      str('target_provision_state', 15), dt('provision_updated_at'), text('last_error'),
      { name: 'instance_info', type: 'longtext' }, text('properties'), str('driver', 255), text('driver_info'),
      text('driver_internal_info'), text('clean_step'), text('deploy_step'), str('resource_class', 80),
      text('raid_config'), text('target_raid_config'), str('reservation', 255), int('conductor_affinity'),
      str('conductor_group', 255, { notNull: true, serverDefault: "''" }), bool('maintenance'),
      text('maintenance_reason'), str('fault', 255), bool('console_enabled'), dt('inspection_finished_at'),
      dt('inspection_started_at'), text('extra'), bool('automated_clean'),
      bool('protected', { notNull: true, serverDefault: '0' }), text('protected_reason'), str('owner', 255),
      str('lessee', 255), int('allocation_id'), text('description'), iface('bios'), iface('boot'),
      iface('console'), iface('deploy'), iface('inspect'), iface('management'), iface('network'),
      iface('raid'), iface('rescue'), bool('retired', { serverDefault: '0' }), text('retired_reason'),
      text('network_data'), iface('storage'), iface('power'), iface('vendor'), str('boot_mode', 16),
      bool('secure_boot'), str('shard', 255)],
    primaryKey: ['id'],
    uniques: [uniq('uniq_nodes0uuid', 'uuid'), uniq('uniq_nodes0instance_uuid', 'instance_uuid'),
      uniq('uniq_nodes0name', 'name')],
    mysqlKeys: [idx('chassis_id', 'chassis_id'), idx('nodes_conductor_affinity_fk', 'conductor_affinity'),
      idx('allocation_id', 'allocation_id')],
    indexes: [idx('owner_idx', 'owner'), idx('lessee_idx', 'lessee'), idx('driver_idx', 'driver'),
      idx('provision_state_idx', 'provision_state'), idx('reservation_idx', 'reservation'),
      idx('conductor_group_idx', 'conductor_group'), idx('resource_class_idx', 'resource_class'),
      idx('shard_idx', 'shard')],
    foreignKeys: [fk('nodes_ibfk_1', 'chassis_id', 'chassis'),
      fk('nodes_conductor_affinity_fk', 'conductor_affinity', 'conductors', true),
      fk('nodes_ibfk_2', 'allocation_id', 'allocations')],
  },
  {
    name: 'allocations',
    columns: [...base, id, str('uuid', 36, { notNull: true }), str('name', 255), int('node_id'),
      str('state', 15, { notNull: true }), str('owner', 255), text('last_error'), str('resource_class', 80),
      text('traits'), text('candidate_nodes'), text('extra'), int('conductor_affinity')],
    primaryKey: ['id'],
    uniques: [uniq('uniq_allocations0name', 'name'), uniq('uniq_allocations0uuid', 'uuid')],
    mysqlKeys: [idx('conductor_affinity', 'conductor_affinity'), idx('node_id', 'node_id')],
    foreignKeys: [fk('allocations_ibfk_2', 'node_id', 'nodes'),
      fk('allocations_ibfk_1', 'conductor_affinity', 'conductors')],
  },
  {
    name: 'deploy_templates',
    columns: [...base, id, str('uuid', 36), str('name', 255, { notNull: true }), text('extra')],
    primaryKey: ['id'],
    uniques: [uniq('uniq_deploytemplates0uuid', 'uuid'), uniq('uniq_deploytemplates0name', 'name')],
  },
  {
    name: 'conductor_hardware_interfaces',
    columns: [...base, id, int('conductor_id', { notNull: true }), str('hardware_type', 255, { notNull: true }),
      str('interface_type', 16, { notNull: true }), str('interface_name', 255, { notNull: true }),
      bool('default', { notNull: true })],
    primaryKey: ['id'],
    uniques: [uniq('uniq_conductorhardwareinterfaces0', 'conductor_id', 'hardware_type', 'interface_type',
      'interface_name')],
    foreignKeys: [fk('conductor_hardware_interfaces_ibfk_1', 'conductor_id', 'conductors')],
  },
  {
    name: 'portgroups',
    columns: [...base, id, str('uuid', 36), str('name', 255), int('node_id'), str('address', 18), text('extra'),
      text('internal_info'), bool('standalone_ports_supported'), str('mode', 255), text('properties')],
    primaryKey: ['id'],
    uniques: [uniq('uniq_portgroups0uuid', 'uuid'), uniq('uniq_portgroups0address', 'address'),
      uniq('uniq_portgroups0name', 'name')],
    mysqlKeys: [idx('node_id', 'node_id')],
    foreignKeys: [fk('portgroups_ibfk_1', 'node_id', 'nodes')],
  },
  {
    name: 'node_tags',
    columns: [...base, int('node_id', { notNull: true }), str('tag', 255, { notNull: true })],
    primaryKey: ['node_id', 'tag'], indexes: [idx('node_tags_idx', 'tag')],
    foreignKeys: [fk('node_tags_ibfk_1', 'node_id', 'nodes')],
  },
  {
    name: 'volume_connectors',
    columns: [...base, id, str('uuid', 36), int('node_id'), str('type', 32), str('connector_id', 255),
      text('extra')],
    primaryKey: ['id'],
    uniques: [uniq('uniq_volumeconnectors0uuid', 'uuid'),
      uniq('uniq_volumeconnectors0type0connector_id', 'type', 'connector_id')],
    mysqlKeys: [idx('node_id', 'node_id')],
    foreignKeys: [fk('volume_connectors_ibfk_1', 'node_id', 'nodes')],
  },
  {
    name: 'volume_targets',
    columns: [...base, id, str('uuid', 36), int('node_id'), str('volume_type', 64), text('properties'),
      int('boot_index'), str('volume_id', 36), text('extra')],
    primaryKey: ['id'],
    uniques: [uniq('uniq_volumetargets0uuid', 'uuid'),
      uniq('uniq_volumetargets0node_id0boot_index', 'node_id', 'boot_index')],
    foreignKeys: [fk('volume_targets_ibfk_1', 'node_id', 'nodes')],
  },
  {
    name: 'node_traits',
    columns: [...base, int('node_id', { notNull: true }), str('trait', 255, { notNull: true })],
    primaryKey: ['node_id', 'trait'], indexes: [idx('node_traits_idx', 'trait')],
    foreignKeys: [fk('node_traits_ibfk_1', 'node_id', 'nodes')],
  },
  {
    name: 'bios_settings',
    columns: [...base, int('node_id', { notNull: true }), str('name', 255, { notNull: true }), text('value'),
      str('attribute_type', 255), text('allowable_values'), int('lower_bound'), int('max_length'),
      int('min_length'), bool('read_only'), bool('reset_required'), bool('unique'), int('upper_bound')],
    primaryKey: ['node_id', 'name'],
    foreignKeys: [fk('bios_settings_ibfk_1', 'node_id', 'nodes')],
  },
  {
    name: 'deploy_template_steps',
    columns: [...base, id, int('deploy_template_id', { notNull: true }), str('interface', 255, { notNull: true }),
      str('step', 255, { notNull: true }), text('args', { notNull: true }), int('priority', { notNull: true })],
    primaryKey: ['id'],
    indexes: [idx('deploy_template_id', 'deploy_template_id'),
      idx('deploy_template_steps_interface_idx', 'interface'), idx('deploy_template_steps_step_idx', 'step')],
    foreignKeys: [fk('deploy_template_steps_ibfk_1', 'deploy_template_id', 'deploy_templates')],
  },
  {
    name: 'node_history',
    columns: [...base, id, str('uuid', 36, { notNull: true }), str('conductor', 255), str('event_type', 255),
      str('severity', 255), text('event'), str('user', 32), int('node_id')],
    primaryKey: ['id'],
    uniques: [uniq('uniq_history0uuid', 'uuid')],
    indexes: [idx('history_node_id_idx', 'node_id'), idx('history_uuid_idx', 'uuid'),
      idx('history_conductor_idx', 'conductor')],
    foreignKeys: [fk('node_history_ibfk_1', 'node_id', 'nodes')],
  },
  {
    name: 'node_inventory',
    columns: [...base, id, { name: 'inventory_data', type: 'longtext' }, { name: 'plugin_data', type: 'longtext' },
      int('node_id')],
    primaryKey: ['id'], indexes: [idx('inventory_node_id_idx', 'node_id')],
    foreignKeys: [fk('node_inventory_ibfk_1', 'node_id', 'nodes')],
  },
  {
    name: 'ports',
    columns: [...base, id, str('uuid', 36), str('address', 18), int('node_id'), text('extra'),
      text('local_link_connection'), int('portgroup_id'), bool('pxe_enabled'), text('internal_info'),
      str('physical_network', 64), bool('is_smartnic'), str('name', 255)],
    primaryKey: ['id'],
    uniques: [uniq('uniq_ports0address', 'address'), uniq('uniq_ports0uuid', 'uuid'),
      uniq('uniq_ports0name', 'name')],
    mysqlKeys: [idx('node_id', 'node_id'), idx('fk_portgroups_ports', 'portgroup_id')],
    foreignKeys: [fk('ports_ibfk_1', 'node_id', 'nodes'), fk('fk_portgroups_ports', 'portgroup_id', 'portgroups')],
  },
];

export const ALEMBIC_VERSION_TABLE: TableDef = {
  name: 'alembic_version',
  columns: [{ name: 'version_num', type: 'varchar(32)', notNull: true }],
  primaryKey: ['version_num'],
  charset: 'utf8mb4',
};
