/**
 * The conductors table as the conductor service uses it: register/heartbeat/unregister and the
 * "who is alive for which (group, hardware type)" view the hash ring is built from.
 */
import { decodeRow, encodeInsert, encodeRow } from '../codec';
import type { Database } from '../connection';
import { conductorsHeartbeat } from '../heartbeats';
import type { ConductorRecord } from '../models';
import { setTimeout as sleep } from 'node:timers/promises';

interface HardwareInterfaceRow {
  hardware_type: string;
  interface_type: string;
  interface_name: string;
  default: boolean;
}

const DEADLOCK_RETRIES = 5;

function isDeadlock(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return code === 'ER_LOCK_DEADLOCK' || code === 'ER_LOCK_WAIT_TIMEOUT' || code === 'SQLITE_BUSY';
}

/**
 * Registers (or re-registers, as update_existing=True) this host; returns its conductor id.
 * Conductors starting together can deadlock on the interface rows; Ironic retries, and so do we.
 */
export async function registerConductor(db: Database, hostname: string, group: string, hardwareTypes: string[],
  interfaces: HardwareInterfaceRow[]): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await registerOnce(db, hostname, group, hardwareTypes, interfaces);
    } catch (err) {
      if (!isDeadlock(err) || attempt >= DEADLOCK_RETRIES) throw err;
      await sleep(100 * attempt);
    }
  }
}

async function registerOnce(db: Database, hostname: string, group: string, hardwareTypes: string[],
  interfaces: HardwareInterfaceRow[]): Promise<number> {
  const now = new Date();
  return db.transaction(async (trx) => {
    const existing = await trx('conductors').where({ hostname }).first('id') as { id: number } | undefined;
    // Conductor object version of Ironic 21.4.4, whose loader and dbsync reject newer ones (rollback).
    const values = { hostname, conductor_group: group, drivers: hardwareTypes, online: true, version: '1.3' };
    let id: number;
    if (existing) {
      id = Number(existing.id);
      await trx('conductors').where({ id }).update(encodeRow('conductors', { ...values, updated_at: now }, db.dialect));
    } else {
      // Stamped as alive at once, as Ironic's first heartbeat runs right after registration.
      const res = await trx('conductors').insert(encodeInsert('conductors', { ...values, updated_at: now }, db.dialect, now)) as unknown[];
      id = Number(res[0]);
    }
    await trx('conductor_hardware_interfaces').where({ conductor_id: id }).delete();
    for (const row of interfaces) {
      await trx('conductor_hardware_interfaces').insert(encodeInsert('conductor_hardware_interfaces',
        { ...row, conductor_id: id, version: '1.0' }, db.dialect, now));
    }
    return id;
  });
}

export async function touchConductor(db: Database, hostname: string): Promise<void> {
  await db.knex('conductors').where({ hostname })
    .update(encodeRow('conductors', { updated_at: new Date(), online: true }, db.dialect));
}

/** Marks the host offline and drops its interface rows (Conductor.unregister). */
export async function unregisterConductor(db: Database, hostname: string): Promise<void> {
  await db.transaction(async (trx) => {
    const row = await trx('conductors').where({ hostname }).first('id') as { id: number } | undefined;
    if (!row) return;
    await trx('conductor_hardware_interfaces').where({ conductor_id: row.id }).delete();
    await trx('conductors').where({ id: row.id }).update(encodeRow('conductors', { online: false }, db.dialect));
  });
}

function lastSeen(c: ConductorRecord): number {
  return (c.updated_at ?? c.created_at ?? new Date(0)).getTime();
}

async function listConductors(db: Database): Promise<ConductorRecord[]> {
  const rows = await db.knex('conductors').orderBy('id') as Array<Record<string, unknown>>;
  return rows.map((r) => decodeRow<ConductorRecord>('conductors', r));
}

/** The oldest heartbeat that still counts, or none where conductors do not heartbeat. */
function heartbeatLimit(db: Database, timeoutSeconds: number): number {
  return conductorsHeartbeat(db) ? Date.now() - timeoutSeconds * 1000 : -Infinity;
}

/** Hostnames offline or silent for longer than `timeoutSeconds` (get_offline_conductors). */
export async function offlineConductors(db: Database, timeoutSeconds: number): Promise<string[]> {
  const limit = heartbeatLimit(db, timeoutSeconds);
  return (await listConductors(db)).filter((c) => !c.online || lastSeen(c) < limit).map((c) => c.hostname);
}

/** `"<group>:<hardware type>"` -> live hostnames (get_active_hardware_type_dict with groups). */
export async function activeHardwareTypeHosts(db: Database, timeoutSeconds: number): Promise<Map<string, string[]>> {
  const limit = heartbeatLimit(db, timeoutSeconds);
  const rows = await db.knex('conductor_hardware_interfaces as h')
    .join('conductors as c', 'c.id', 'h.conductor_id')
    .distinct('c.hostname', 'c.conductor_group', 'h.hardware_type', 'c.updated_at', 'c.created_at', 'c.online') as
    Array<Record<string, unknown>>;
  const out = new Map<string, string[]>();
  for (const raw of rows) {
    const c = decodeRow<ConductorRecord>('conductors', raw);
    if (!c.online || lastSeen(c) < limit) continue;
    const key = `${c.conductor_group}:${String(raw.hardware_type)}`;
    const hosts = out.get(key) ?? [];
    if (!hosts.includes(c.hostname)) hosts.push(c.hostname);
    out.set(key, hosts);
  }
  return out;
}
