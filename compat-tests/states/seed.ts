/**
 * Puts a node straight into a state the fake interfaces of Ironic 21.4.4 never reach (the wait
 * states, adopt/inspect/rescue failures, error), by writing the row both servers share the schema
 * of. Everything after that (abort, timeouts, the verbs out of the state) goes through the API.
 */

/** The slice of better-sqlite3 used here (the package ships no type declarations). */
interface SqliteDb {
  prepare(sql: string): { run(params: Record<string, unknown>): { changes: number } };
  close(): void;
}
const Database = require('better-sqlite3') as new (file: string, opts: { timeout: number }) => SqliteDb;

export interface Seed {
  provision_state: string;
  target_provision_state: string | null;
  /** Seconds before now; old enough to be past the callback timeouts, or 0 for "just now". */
  ageSeconds: number;
  clean_step?: Record<string, unknown> | null;
  service_step?: Record<string, unknown> | null;
  instance_info?: Record<string, unknown>;
  driver_internal_info?: Record<string, unknown>;
  last_error?: string | null;
  power_state?: string;
}

/** Ironic's SQLite datetime spelling (naive UTC with microseconds). */
function sqlTime(ageSeconds: number): string {
  return new Date(Date.now() - ageSeconds * 1000).toISOString().replace('T', ' ').replace('Z', '000');
}

export function seedNode(dbFile: string, uuid: string, seed: Seed): void {
  const db = new Database(dbFile, { timeout: 10_000 });
  try {
    const at = sqlTime(seed.ageSeconds);
    const cols: Record<string, unknown> = {
      provision_state: seed.provision_state,
      target_provision_state: seed.target_provision_state,
      provision_updated_at: at,
      last_error: seed.last_error ?? null,
    };
    if (seed.provision_state === 'inspect wait') cols.inspection_started_at = at;
    if (seed.clean_step !== undefined) cols.clean_step = seed.clean_step === null ? null : JSON.stringify(seed.clean_step);
    if (seed.service_step !== undefined) cols.service_step = seed.service_step === null ? null : JSON.stringify(seed.service_step);
    if (seed.instance_info) cols.instance_info = JSON.stringify(seed.instance_info);
    if (seed.driver_internal_info) cols.driver_internal_info = JSON.stringify(seed.driver_internal_info);
    if (seed.power_state) cols.power_state = seed.power_state;
    const names = Object.keys(cols);
    const changed = db.prepare(`UPDATE nodes SET ${names.map((n) => `${n} = @${n}`).join(', ')} WHERE uuid = @uuid`)
      .run({ ...cols, uuid }).changes;
    if (changed !== 1) throw new Error(`seed: node ${uuid} not found in ${dbFile}`);
  } finally {
    db.close();
  }
}
