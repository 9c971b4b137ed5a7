/**
 * Conductor registration and liveness (conductors) plus the hardware interfaces each conductor
 * loaded (conductor_hardware_interfaces). A conductor is alive while online and its updated_at
 * (heartbeat) is within the timeout.
 */
import { decodeRow, encodeDate } from '../codec';
import type { Database } from '../connection';
import { conductorsHeartbeat } from '../heartbeats';
import { DuplicateError, NotFoundError } from '../errors';
import type { ConductorHardwareInterfaceRecord, ConductorRecord } from '../models';
import { insertRow, selectMany, updateWhere } from './table-access';

export interface ConductorValues {
  hostname: string;
  drivers?: string[];
  conductor_group?: string;
  version?: string | null;
}

async function byHostname(db: Database, hostname: string): Promise<ConductorRecord | null> {
  const row = await db.knex('conductors').where({ hostname }).first() as Record<string, unknown> | undefined;
  return row ? decodeRow<ConductorRecord>('conductors', row) : null;
}

export async function get(db: Database, hostname: string, onlineOnly = true): Promise<ConductorRecord> {
  const c = await byHostname(db, hostname);
  if (!c || (onlineOnly && !c.online)) throw new NotFoundError('Conductor', hostname);
  return c;
}

/**
 * Registers (or re-registers an offline) conductor; ConductorAlreadyRegistered when it is online,
 * unless updateExisting. Marks it online with a fresh heartbeat.
 */
export async function register(db: Database, values: ConductorValues, updateExisting = false): Promise<ConductorRecord> {
  const existing = await byHostname(db, values.hostname);
  const now = new Date();
  const fields = { ...values, online: true, updated_at: now };
  if (!existing) {
    await insertRow(db.knex, db.dialect, 'conductors', fields, (cols) =>
      new DuplicateError('ConductorAlreadyRegistered', `Conductor ${values.hostname} already registered.`, cols));
  } else if (existing.online && !updateExisting) {
    throw new DuplicateError('ConductorAlreadyRegistered', `Conductor ${values.hostname} already registered.`, ['hostname']);
  } else {
    await updateWhere(db.knex, db.dialect, 'conductors', { id: existing.id }, fields);
  }
  return get(db, values.hostname);
}

/** Heartbeat: stamps updated_at and (re)marks online. */
export async function touch(db: Database, hostname: string, online = true): Promise<void> {
  const n = await updateWhere(db.knex, db.dialect, 'conductors', { hostname }, { online });
  if (n === 0) throw new NotFoundError('Conductor', hostname);
}

/** Marks the conductor offline and forgets its hardware interfaces (Ironic's unregister). */
export async function unregister(db: Database, hostname: string): Promise<void> {
  await db.transaction(async (trx) => {
    const n = await updateWhere(trx, db.dialect, 'conductors', { hostname, online: 1 }, { online: false });
    if (n === 0) throw new NotFoundError('Conductor', hostname);
  });
}

export async function list(db: Database): Promise<ConductorRecord[]> {
  return selectMany<ConductorRecord>(db.knex, 'conductors', {}, 'id');
}

function aliveSince(db: Database, timeoutSeconds: number): string {
  return encodeDate(new Date(Date.now() - timeoutSeconds * 1000), db.dialect);
}

/** Online conductors that heartbeated within `timeoutSeconds` (where they heartbeat), optionally of one group. */
export async function listAlive(db: Database, timeoutSeconds: number, conductorGroup?: string): Promise<ConductorRecord[]> {
  const q = db.knex('conductors').where({ online: 1 });
  if (conductorsHeartbeat(db)) q.where('updated_at', '>=', aliveSince(db, timeoutSeconds));
  if (conductorGroup !== undefined) q.where({ conductor_group: conductorGroup });
  const rows = await q.orderBy('id') as Array<Record<string, unknown>>;
  return rows.map((r) => decodeRow<ConductorRecord>('conductors', r));
}

/** Conductors that are offline or (where they heartbeat) whose heartbeat is older than the timeout. */
export async function listOffline(db: Database, timeoutSeconds: number): Promise<ConductorRecord[]> {
  const rows = await db.knex('conductors')
    .where((q) => {
      q.where('online', 0).orWhereNull('online');
      if (conductorsHeartbeat(db)) q.orWhere('updated_at', '<', aliveSince(db, timeoutSeconds));
    })
    .orderBy('id') as Array<Record<string, unknown>>;
  return rows.map((r) => decodeRow<ConductorRecord>('conductors', r));
}

export interface HardwareInterfaceValues {
  hardware_type: string;
  interface_type: string;
  interface_name: string;
  default: boolean;
}

/** Replaces the conductor's hardware interface rows in one transaction. */
export async function registerHardwareInterfaces(db: Database, conductorId: number,
  interfaces: HardwareInterfaceValues[], version: string | null = null): Promise<void> {
  await db.transaction(async (trx) => {
    await trx('conductor_hardware_interfaces').where({ conductor_id: conductorId }).delete();
    for (const iface of interfaces) {
      await insertRow(trx, db.dialect, 'conductor_hardware_interfaces', { ...iface, conductor_id: conductorId, version },
        (cols) => new DuplicateError('ConductorHardwareInterfacesAlreadyRegistered',
          `At least one of these (hardware type ${iface.hardware_type}, interface type ${iface.interface_type}, ` +
          `interfaces ${iface.interface_name}) combinations are already registered for this conductor.`, cols));
    }
  });
}

export async function unregisterHardwareInterfaces(db: Database, conductorId: number): Promise<void> {
  await db.knex('conductor_hardware_interfaces').where({ conductor_id: conductorId }).delete();
}

/** Interfaces of the given conductors (all when omitted). */
export async function listHardwareInterfaces(db: Database, conductorIds?: number[]):
  Promise<ConductorHardwareInterfaceRecord[]> {
  const q = db.knex('conductor_hardware_interfaces');
  if (conductorIds) q.whereIn('conductor_id', conductorIds);
  const rows = await q.orderBy('id') as Array<Record<string, unknown>>;
  return rows.map((r) => decodeRow<ConductorHardwareInterfaceRecord>('conductor_hardware_interfaces', r));
}

/**
 * hardware type -> conductor hostnames (or "group:hostname"-less groups when useGroups) of alive
 * conductors, like Ironic's get_active_hardware_type_dict.
 */
export async function activeHardwareTypes(db: Database, timeoutSeconds: number, useGroups = false):
  Promise<Map<string, Set<string>>> {
  const q = db.knex('conductor_hardware_interfaces as chi')
    .join('conductors as c', 'c.id', 'chi.conductor_id')
    .where('c.online', 1);
  if (conductorsHeartbeat(db)) q.where('c.updated_at', '>=', aliveSince(db, timeoutSeconds));
  const rows = await q.distinct('chi.hardware_type', 'c.hostname', 'c.conductor_group') as
    Array<{ hardware_type: string; hostname: string; conductor_group: string }>;
  const out = new Map<string, Set<string>>();
  for (const r of rows) {
    const key = useGroups ? `${r.hardware_type}:${r.conductor_group}` : r.hardware_type;
    const set = out.get(key) ?? new Set<string>();
    set.add(r.hostname);
    out.set(key, set);
  }
  return out;
}
