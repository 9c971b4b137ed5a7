/**
 * How each Ironic column is stored, so rows can be encoded/decoded in one place (column-kind.ts
 * says what each kind is). The nodes table comes from the node field registry.
 */
import type { ColumnKind } from './column-kind';
import { NODE_COLUMN_KINDS, NODE_INSERT_DEFAULTS } from './node-field-lists';

export type { ColumnKind } from './column-kind';

type TableSpec = Readonly<Record<string, ColumnKind>>;

const base = { created_at: 'datetime', updated_at: 'datetime', version: 'str' } as const;

export const TABLES = {
  chassis: { ...base, id: 'int', uuid: 'str', extra: 'dict', description: 'str' },
  conductors: {
    ...base, id: 'int', hostname: 'str', drivers: 'list', online: 'bool', conductor_group: 'str',
  },
  conductor_hardware_interfaces: {
    ...base, id: 'int', conductor_id: 'int', hardware_type: 'str', interface_type: 'str',
    interface_name: 'str', default: 'bool',
  },
  nodes: NODE_COLUMN_KINDS,
  node_traits: { ...base, node_id: 'int', trait: 'str' },
  node_tags: { ...base, node_id: 'int', tag: 'str' },
  ports: {
    ...base, id: 'int', uuid: 'str', address: 'str', node_id: 'int', extra: 'dict',
    local_link_connection: 'dict', portgroup_id: 'int', pxe_enabled: 'bool', internal_info: 'dict',
    physical_network: 'str', is_smartnic: 'bool', name: 'str', description: 'str', vendor: 'str',
    category: 'str', available_for_dynamic_portgroup: 'bool',
  },
  portgroups: {
    ...base, id: 'int', uuid: 'str', name: 'str', node_id: 'int', address: 'str', extra: 'dict',
    internal_info: 'dict', standalone_ports_supported: 'bool', mode: 'str', properties: 'dict',
    physical_network: 'str', category: 'str', dynamic_portgroup: 'bool',
  },
  volume_connectors: {
    ...base, id: 'int', uuid: 'str', node_id: 'int', type: 'str', connector_id: 'str', extra: 'dict',
  },
  volume_targets: {
    ...base, id: 'int', uuid: 'str', node_id: 'int', volume_type: 'str', properties: 'dict',
    boot_index: 'int', volume_id: 'str', extra: 'dict',
  },
  bios_settings: {
    ...base, node_id: 'int', name: 'str', value: 'str', attribute_type: 'str', allowable_values: 'list',
    lower_bound: 'int', max_length: 'int', min_length: 'int', read_only: 'bool', reset_required: 'bool',
    unique: 'bool', upper_bound: 'int',
  },
  allocations: {
    ...base, id: 'int', uuid: 'str', name: 'str', node_id: 'int', state: 'str', owner: 'str',
    last_error: 'str', resource_class: 'str', traits: 'list', candidate_nodes: 'list', extra: 'dict',
    conductor_affinity: 'int',
  },
  deploy_templates: { ...base, id: 'int', uuid: 'str', name: 'str', extra: 'dict' },
  deploy_template_steps: {
    ...base, id: 'int', deploy_template_id: 'int', interface: 'str', step: 'str', args: 'dict',
    priority: 'int',
  },
  node_history: {
    ...base, id: 'int', uuid: 'str', conductor: 'str', event_type: 'str', severity: 'str', event: 'str',
    user: 'str', project: 'str', node_id: 'int', state: 'str', target_provision_state: 'str',
    duration_seconds: 'int',
  },
  node_inventory: { ...base, id: 'int', inventory_data: 'dict', plugin_data: 'dict', node_id: 'int' },
  firmware_information: {
    ...base, id: 'int', node_id: 'int', component: 'str', initial_version: 'str', current_version: 'str',
    last_version_flashed: 'str', vendor: 'str', model: 'str', serial_number: 'str',
  },
  runbooks: {
    ...base, id: 'int', uuid: 'str', name: 'str', description: 'str', public: 'bool', owner: 'str',
    disable_ramdisk: 'bool', extra: 'dict',
  },
  runbook_steps: {
    ...base, id: 'int', runbook_id: 'int', interface: 'str', step: 'str', args: 'dict', order: 'int',
  },
  runbook_traits: { ...base, runbook_id: 'int', trait: 'str' },
  inspection_rules: {
    ...base, id: 'int', uuid: 'str', priority: 'int', description: 'str', scope: 'str', sensitive: 'bool',
    phase: 'str', conditions: 'list', actions: 'list',
  },
} as const satisfies Record<string, TableSpec>;

export type TableName = keyof typeof TABLES;

/**
 * Python-side column defaults Ironic's models apply on INSERT when the value is not given
 * (SQLAlchemy `default=`); server defaults are in the migrations.
 */
/**
 * The object version each row is stamped with when the writer gives none: Ironic 21.4.4's own,
 * so that Python Ironic 21.4.4 can still load (and dbsync) a database ironic-ts wrote to.
 */
const IRONIC_21_4_OBJECT_VERSIONS: Partial<Record<TableName, string>> = {
  allocations: '1.1', bios_settings: '1.1', chassis: '1.3', conductors: '1.3', deploy_templates: '1.1',
  deploy_template_steps: '1.1', node_history: '1.0', node_inventory: '1.0', node_traits: '1.0', nodes: '1.37',
  ports: '1.11', portgroups: '1.5', volume_connectors: '1.0', volume_targets: '1.0',
};

const stamp = (table: TableName): Record<string, unknown> =>
  IRONIC_21_4_OBJECT_VERSIONS[table] ? { version: IRONIC_21_4_OBJECT_VERSIONS[table] } : {};

/**
 * Each dict column as {} and each list column as []: Ironic's objects fill their JSON fields before
 * an insert, so its rows hold '{}' where nothing was given, never NULL (which Ironic's own code,
 * reading such a row back, would meet as None).
 */
const emptyJson = (table: TableName): Record<string, unknown> => Object.fromEntries(
  Object.entries(TABLES[table] as Readonly<Record<string, ColumnKind>>)
    .filter(([, kind]) => kind === 'dict' || kind === 'list')
    .map(([column, kind]) => [column, kind === 'dict' ? {} : []]));

export const INSERT_DEFAULTS: Partial<Record<TableName, Readonly<Record<string, unknown>>>> = {
  allocations: stamp('allocations'),
  bios_settings: stamp('bios_settings'),
  chassis: stamp('chassis'),
  deploy_templates: stamp('deploy_templates'),
  deploy_template_steps: stamp('deploy_template_steps'),
  node_history: stamp('node_history'),
  node_inventory: stamp('node_inventory'),
  node_traits: stamp('node_traits'),
  volume_connectors: { ...stamp('volume_connectors'), ...emptyJson('volume_connectors') },
  volume_targets: { ...stamp('volume_targets'), ...emptyJson('volume_targets') },
  conductors: { ...stamp('conductors'), online: true, conductor_group: '' },
  conductor_hardware_interfaces: { default: false },
  nodes: { ...stamp('nodes'), ...emptyJson('nodes'), ...NODE_INSERT_DEFAULTS },
  ports: { ...stamp('ports'), pxe_enabled: true, is_smartnic: false, available_for_dynamic_portgroup: true },
  portgroups: { ...stamp('portgroups'), standalone_ports_supported: true, dynamic_portgroup: false },
  runbooks: { public: false, disable_ramdisk: false },
  inspection_rules: { priority: 0, sensitive: false, phase: 'main' },
};
