/**
 * `ironic-dbsync online_data_migrations`, as Ironic 21.4.4 runs it: first the compatibility check
 * (every versioned row must carry an object version some supported release knows), then its one
 * online migration, update_to_latest_versions, which stamps rows with the release's versions.
 * A database adopted from an older Ironic needs it before the next upgrade; rows ironic-ts writes
 * are stamped already.
 */
import type { Knex } from 'knex';
import type { Database } from './connection';
import type { TableName } from './columns';

interface VersionedTable {
  table: TableName;
  /** The version update_to_latest_versions writes (RELEASE_MAPPING['master']). */
  latest: string;
  /** Versions release_mappings.get_object_versions() accepts. */
  supported: readonly string[];
  /** A table without an id column (bios_settings) is addressed by node_id, as Ironic does. */
  key?: 'node_id';
}

/** Ironic's models that map to objects, in the order it visits them (Node last). */
const VERSIONED: readonly VersionedTable[] = [
  { table: 'chassis', latest: '1.3', supported: ['1.3'] },
  { table: 'conductors', latest: '1.3', supported: ['1.2', '1.3'] },
  { table: 'ports', latest: '1.11', supported: ['1.7', '1.8', '1.9', '1.10', '1.11'] },
  { table: 'portgroups', latest: '1.5', supported: ['1.3', '1.4', '1.5'] },
  { table: 'volume_connectors', latest: '1.0', supported: ['1.0'] },
  { table: 'volume_targets', latest: '1.0', supported: ['1.0'] },
  { table: 'bios_settings', latest: '1.1', supported: ['1.0', '1.1'], key: 'node_id' },
  { table: 'allocations', latest: '1.1', supported: ['1.0', '1.1'] },
  { table: 'deploy_templates', latest: '1.1', supported: ['1.0', '1.1'] },
  { table: 'node_history', latest: '1.0', supported: ['1.0'] },
  { table: 'node_inventory', latest: '1.0', supported: ['1.0'] },
  { table: 'nodes', latest: '1.37', supported: Array.from({ length: 17 }, (_, i) => `1.${21 + i}`) },
];

interface MigrationResult {
  /** Rows that needed migrating when the call began. */
  total: number;
  migrated: number;
}

/**
 * dbapi.check_versions: false when some row's version is NULL or one no supported release knows
 * (Ironic then refuses to migrate: the previous release must run first).
 */
export async function objectVersionsCompatible(db: Database): Promise<boolean> {
  for (const { table, supported } of VERSIONED) {
    const bad = await db.knex(table).whereNull('version').orWhereNotIn('version', [...supported]).first('version');
    if (bad) return false;
  }
  return true;
}

async function outdated(ex: Knex | Knex.Transaction, table: TableName, latest: string): Promise<number> {
  const row = await ex(table).whereNot('version', latest).count({ n: '*' }).first() as { n?: number | string } | undefined;
  return Number(row?.n ?? 0);
}

/**
 * update_to_latest_versions: at most `maxCount` rows (0: all), table by table. As in Ironic, a
 * table without ids is limited by node, so one node's rows move together.
 */
export async function updateToLatestVersions(db: Database, maxCount: number): Promise<MigrationResult> {
  let total = 0;
  for (const { table, latest } of VERSIONED) total += await outdated(db.knex, table, latest);
  if (total === 0) return { total, migrated: 0 };
  const budget = maxCount || total;
  let migrated = 0;
  for (const { table, latest, key = 'id' } of VERSIONED) {
    const left = budget - migrated;
    if (left <= 0) break;
    migrated += await db.knex.transaction(async (trx): Promise<number> => {
      if (left >= await outdated(trx, table, latest)) return trx(table).whereNot('version', latest).update({ version: latest });
      const keys = (await trx(table).whereNot('version', latest).select(key).limit(left) as Array<Record<string, number>>)
        .map((r) => r[key]);
      return trx(table).whereIn(key, keys).whereNot('version', latest).update({ version: latest });
    });
  }
  return { total, migrated };
}
