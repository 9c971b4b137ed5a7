/**
 * Test fixtures for the conductor: a temp SQLite (or MariaDB) database at the current schema,
 * a Config with fake-hardware enabled and periodic tasks off, and polling helpers.
 */
import * as fs from 'node:fs';
import { after, before } from 'node:test';
import * as os from 'node:os';
import * as path from 'node:path';
import { Config, Overrides } from '../../src/conf/config';
import { ConductorService, startConductorService } from '../../src/conductor/service';
import { openDatabase, Database } from '../../src/db/connection';
import { upgrade } from '../../src/db/sync';
import type { NodeRecord } from '../../src/db/models';
import * as nodes from '../../src/db/repositories/nodes';

export const ALL_FAKE = {
  enabled_hardware_types: ['fake-hardware'],
  enabled_bios_interfaces: ['fake', 'no-bios'],
  enabled_boot_interfaces: ['fake'],
  enabled_console_interfaces: ['fake', 'no-console'],
  enabled_deploy_interfaces: ['fake'],
  enabled_inspect_interfaces: ['fake', 'no-inspect'],
  enabled_management_interfaces: ['fake', 'noop'],
  enabled_network_interfaces: ['flat', 'noop'],
  enabled_power_interfaces: ['fake'],
  enabled_raid_interfaces: ['fake', 'no-raid'],
  enabled_rescue_interfaces: ['fake', 'no-rescue'],
  enabled_storage_interfaces: ['fake', 'noop'],
  enabled_vendor_interfaces: ['fake', 'no-vendor'],
};

/** Periodic tasks off so tests drive them explicitly; quick lock retries. */
const QUIET_CONDUCTOR = {
  sync_power_state_interval: 0, power_failure_recovery_interval: 0, check_provision_state_interval: 0,
  check_rescue_state_interval: 0, sync_local_state_interval: 0, node_history_cleanup_interval: 0,
  node_locked_retry_attempts: 2, node_locked_retry_interval: 0, heartbeat_interval: 1,
};

export function makeConf(host: string, overrides: Overrides = {}): Config {
  const merged: Overrides = {
    DEFAULT: { host, rpc_transport: 'none', ...ALL_FAKE, ...(overrides.DEFAULT ?? {}) },
    conductor: { ...QUIET_CONDUCTOR, ...(overrides.conductor ?? {}) },
  };
  for (const [group, values] of Object.entries(overrides)) {
    if (group !== 'DEFAULT' && group !== 'conductor') merged[group] = values;
  }
  return new Config([], merged);
}

export interface TempDb {
  db: Database;
  cleanup(): Promise<void>;
}

export async function sqliteDb(): Promise<TempDb> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'conductor-test-'));
  const db = await openDatabase(`sqlite:///${path.join(dir, 'ironic.sqlite')}`);
  await upgrade(db);
  return {
    db,
    async cleanup() {
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function mariaDb(name: string): Promise<TempDb> {
  const admin = await openDatabase('mysql+pymysql://root@127.0.0.1:3306/mysql');
  await admin.knex.raw(`DROP DATABASE IF EXISTS \`${name}\``);
  await admin.knex.raw(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`);
  await admin.close();
  const db = await openDatabase(`mysql+pymysql://root@127.0.0.1:3306/${name}`);
  await upgrade(db);
  return {
    db,
    async cleanup() {
      await db.close();
      const a = await openDatabase('mysql+pymysql://root@127.0.0.1:3306/mysql');
      await a.knex.raw(`DROP DATABASE IF EXISTS \`${name}\``);
      await a.close();
    },
  };
}

/** Polls the node until `pred` holds (work runs in the background after the call returns). */
export async function waitForNode(db: Database, uuid: string, pred: (n: NodeRecord) => boolean,
  timeoutMs = 10000): Promise<NodeRecord> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const node = await nodes.find(db, uuid);
    if (pred(node) && node.reservation === null) return node;
    if (Date.now() > end) throw new Error(`node ${uuid} never matched; last: ${node.provision_state}/${node.target_provision_state} reservation=${node.reservation}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const stable = (state: string) => (n: NodeRecord) => n.provision_state === state && n.target_provision_state === null;

/** A conductor on a fresh SQLite database for one test file: started before its tests, stopped after. */
export interface ConductorFixture {
  readonly svc: ConductorService;
  readonly tmp: TempDb;
}

export function conductorFixture(host: string): ConductorFixture {
  const state: { svc?: ConductorService; tmp?: TempDb } = {};
  before(async () => {
    state.tmp = await sqliteDb();
    state.svc = await startConductorService({ conf: makeConf(host), db: state.tmp.db });
  });
  after(async () => {
    await state.svc?.stop();
    await state.tmp?.cleanup();
  });
  return {
    get svc() { return state.svc as ConductorService; },
    get tmp() { return state.tmp as TempDb; },
  };
}
