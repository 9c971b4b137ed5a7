/**
 * Recognises UNIQUE/PRIMARY KEY violations from SQLite and MySQL/MariaDB and names the
 * columns involved, like oslo.db's DBDuplicateEntry.columns.
 */
import { lookupTable } from '../common/own-keys';

/** Unique constraint name -> columns, for MySQL messages that only name the key. */
const UNIQUE_KEYS: Readonly<Record<string, readonly string[]>> = lookupTable({
  uniq_chassis0uuid: ['uuid'],
  uniq_conductors0hostname: ['hostname'],
  uniq_conductorhardwareinterfaces0: ['conductor_id', 'hardware_type', 'interface_type', 'interface_name'],
  uniq_nodes0uuid: ['uuid'],
  uniq_nodes0instance_uuid: ['instance_uuid'],
  uniq_nodes0name: ['name'],
  uniq_ports0address: ['address'],
  uniq_ports0uuid: ['uuid'],
  uniq_ports0name: ['name'],
  uniq_portgroups0uuid: ['uuid'],
  uniq_portgroups0address: ['address'],
  uniq_portgroups0name: ['name'],
  uniq_volumeconnectors0uuid: ['uuid'],
  uniq_volumeconnectors0type0connector_id: ['type', 'connector_id'],
  uniq_volumetargets0uuid: ['uuid'],
  uniq_volumetargets0node_id0boot_index: ['node_id', 'boot_index'],
  uniq_allocations0name: ['name'],
  uniq_allocations0uuid: ['uuid'],
  uniq_deploytemplates0uuid: ['uuid'],
  uniq_deploytemplates0name: ['name'],
  uniq_history0uuid: ['uuid'],
  uniq_nodecomponent0node_id0component: ['node_id', 'component'],
  uniq_runbooks0uuid: ['uuid'],
  uniq_runbooks0name: ['name'],
  uniq_inspection_rules0uuid: ['uuid'],
  PRIMARY: ['primary'],
});

interface DriverError {
  code?: unknown;
  errno?: unknown;
  message?: unknown;
}

/** Columns of the violated unique key, or null when `err` is not a duplicate-key error. */
export function duplicateColumns(err: unknown): string[] | null {
  if (typeof err !== 'object' || err === null) return null;
  const e = err as DriverError;
  const message = String(e.message ?? '');
  if (e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    const m = /constraint failed: (.*)$/.exec(message);
    if (!m) return [];
    return m[1].split(',').map((part) => part.trim().replace(/^.*\./, ''));
  }
  if (e.code === 'ER_DUP_ENTRY' || e.errno === 1062) {
    const m = /for key '(?:[^'.]*\.)?([^']+)'/.exec(message);
    return m ? [...(UNIQUE_KEYS[m[1]] ?? [m[1]])] : [];
  }
  return null;
}
