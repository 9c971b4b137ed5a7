/**
 * Row shapes of Ironic's tables, with the field names Ironic's Python objects use.
 * JSON columns are decoded, DATETIME columns are naive-UTC Dates, tinyint columns are booleans.
 * Columns added after Ironic 21.4.4 are present here too (migration 2 creates them).
 */
import type { ColumnKind } from './column-kind';
import type { NODE_FIELD_DECLS } from './node-fields';

type JsonDict = Record<string, unknown>;
type JsonList = unknown[];

/** Columns every Ironic table carries (IronicBase: TimestampMixin + version). */
interface BaseRecord {
  created_at: Date | null;
  updated_at: Date | null;
  /** Ironic object version string that last wrote the row, e.g. "1.40". */
  version: string | null;
}

export interface ChassisRecord extends BaseRecord {
  id: number;
  uuid: string;
  extra: JsonDict | null;
  description: string | null;
}

export interface ConductorRecord extends BaseRecord {
  id: number;
  hostname: string;
  drivers: JsonList | null;
  online: boolean | null;
  conductor_group: string;
}

export interface ConductorHardwareInterfaceRecord extends BaseRecord {
  id: number;
  conductor_id: number;
  hardware_type: string;
  interface_type: string;
  interface_name: string;
  default: boolean;
}

/** What each column kind reads as. */
interface KindValues {
  int: number; str: string; bool: boolean; datetime: Date; dict: JsonDict; list: JsonList;
}

type NodeColumnDecl = Extract<(typeof NODE_FIELD_DECLS)[number], { column: ColumnKind }>;

/** A nodes row: one member per column of the node field registry, null unless declared notNull. */
export type NodeRecord = {
  [D in NodeColumnDecl as D['name']]: KindValues[D['column']] | (D extends { notNull: true } ? never : null);
};

/** A node with its traits and tags, as Ironic's Node model loads them (selectin). */
export interface NodeWithRelations extends NodeRecord {
  traits: NodeTraitRecord[];
  tags: NodeTagRecord[];
}

export interface NodeTraitRecord extends BaseRecord {
  node_id: number;
  trait: string;
}

export interface NodeTagRecord extends BaseRecord {
  node_id: number;
  tag: string;
}

export interface PortRecord extends BaseRecord {
  id: number;
  uuid: string;
  address: string | null;
  node_id: number | null;
  extra: JsonDict | null;
  local_link_connection: JsonDict | null;
  portgroup_id: number | null;
  pxe_enabled: boolean | null;
  internal_info: JsonDict | null;
  physical_network: string | null;
  is_smartnic: boolean | null;
  name: string | null;
  description: string | null;
  vendor: string | null;
  category: string | null;
  available_for_dynamic_portgroup: boolean;
}

export interface PortgroupRecord extends BaseRecord {
  id: number;
  uuid: string;
  name: string | null;
  node_id: number | null;
  address: string | null;
  extra: JsonDict | null;
  internal_info: JsonDict | null;
  standalone_ports_supported: boolean | null;
  mode: string | null;
  properties: JsonDict | null;
  physical_network: string | null;
  category: string | null;
  dynamic_portgroup: boolean | null;
}

export interface VolumeConnectorRecord extends BaseRecord {
  id: number;
  uuid: string;
  node_id: number | null;
  type: string | null;
  connector_id: string | null;
  extra: JsonDict | null;
}

export interface VolumeTargetRecord extends BaseRecord {
  id: number;
  uuid: string;
  node_id: number | null;
  volume_type: string | null;
  properties: JsonDict | null;
  boot_index: number | null;
  volume_id: string | null;
  extra: JsonDict | null;
}

export interface BiosSettingRecord extends BaseRecord {
  node_id: number;
  name: string;
  value: string | null;
  attribute_type: string | null;
  allowable_values: JsonList | null;
  lower_bound: number | null;
  max_length: number | null;
  min_length: number | null;
  read_only: boolean | null;
  reset_required: boolean | null;
  unique: boolean | null;
  upper_bound: number | null;
}

export interface AllocationRecord extends BaseRecord {
  id: number;
  uuid: string;
  name: string | null;
  node_id: number | null;
  state: string;
  owner: string | null;
  last_error: string | null;
  resource_class: string | null;
  traits: JsonList | null;
  candidate_nodes: JsonList | null;
  extra: JsonDict | null;
  conductor_affinity: number | null;
}

export interface DeployTemplateRecord extends BaseRecord {
  id: number;
  uuid: string;
  name: string;
  extra: JsonDict | null;
}

export interface DeployTemplateStepRecord extends BaseRecord {
  id: number;
  deploy_template_id: number;
  interface: string;
  step: string;
  args: JsonDict;
  priority: number;
}

export interface DeployTemplateWithSteps extends DeployTemplateRecord {
  steps: DeployTemplateStepRecord[];
}

export interface NodeHistoryRecord extends BaseRecord {
  id: number;
  uuid: string;
  conductor: string | null;
  event_type: string | null;
  severity: string | null;
  event: string | null;
  user: string | null;
  project: string | null;
  node_id: number | null;
  state: string | null;
  target_provision_state: string | null;
  duration_seconds: number | null;
}

export interface NodeInventoryRecord extends BaseRecord {
  id: number;
  inventory_data: JsonDict | null;
  plugin_data: JsonDict | null;
  node_id: number | null;
}

export interface FirmwareComponentRecord extends BaseRecord {
  id: number;
  node_id: number;
  component: string;
  initial_version: string;
  current_version: string | null;
  last_version_flashed: string | null;
  vendor: string | null;
  model: string | null;
  serial_number: string | null;
}

export interface RunbookRecord extends BaseRecord {
  id: number;
  uuid: string;
  name: string;
  description: string | null;
  public: boolean | null;
  owner: string | null;
  disable_ramdisk: boolean | null;
  extra: JsonDict | null;
}

export interface RunbookStepRecord extends BaseRecord {
  id: number;
  runbook_id: number;
  interface: string;
  step: string;
  args: JsonDict;
  order: number;
}

export interface RunbookTraitRecord extends BaseRecord {
  runbook_id: number;
  trait: string;
}

export interface RunbookWithRelations extends RunbookRecord {
  steps: RunbookStepRecord[];
  traits: RunbookTraitRecord[];
}

export interface InspectionRuleRecord extends BaseRecord {
  id: number;
  uuid: string;
  priority: number;
  description: string | null;
  scope: string | null;
  sensitive: boolean | null;
  phase: string | null;
  conditions: JsonList | null;
  actions: JsonList;
}

/** Fields a caller may set on create/update: everything but the generated ones. */
export type Writable<R> = Partial<Omit<R, 'id' | 'created_at' | 'updated_at'>>;
