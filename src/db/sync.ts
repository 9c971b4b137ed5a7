/**
 * Schema management behind `ironic-dbsync`: upgrade, create_schema, version.
 * Adopts databases created by Python Ironic (alembic_version present, no knex_migrations) by
 * marking migration 1 applied and running only the later migrations.
 */
import { resolve } from 'node:path';
import type { Knex } from 'knex';
import { IRONIC_21_4_4_HEAD, judgeAlembicRevision } from './alembic';
import type { Database } from './connection';
import { SchemaVersionError } from './errors';

const MIGRATIONS_TABLE = 'knex_migrations';
/** Name knex records for migration 1 (it stores the file name). */
const BASELINE_MIGRATION = '0001_ironic_21_4_4.js';

interface SchemaVersion {
  /** Latest applied ironic-ts migration, or null on an empty database. */
  head: string | null;
  /** Revision in alembic_version when present (Python Ironic's schema marker). */
  alembic: string | null;
  pending: string[];
}

function migratorConfig(db: Database): Knex.MigratorConfig {
  // dist/src/db/sync.js -> dist/migrations
  return {
    directory: resolve(__dirname, '../../migrations'), loadExtensions: ['.js'], tableName: MIGRATIONS_TABLE,
    // MySQL commits implicitly around DDL, so a migration transaction there would be a fiction.
    disableTransactions: db.dialect === 'mysql',
  };
}

async function alembicRevision(knex: Knex): Promise<string | null> {
  if (!(await knex.schema.hasTable('alembic_version'))) return null;
  const row = await knex('alembic_version').first('version_num') as { version_num?: string } | undefined;
  return row?.version_num ?? null;
}

async function hasAppliedMigrations(knex: Knex): Promise<boolean> {
  if (!(await knex.schema.hasTable(MIGRATIONS_TABLE))) return false;
  const row = await knex(MIGRATIONS_TABLE).count({ n: '*' }).first() as { n?: number | string } | undefined;
  return Number(row?.n ?? 0) > 0;
}

/** Marks the baseline migration applied on a database Python Ironic created. */
async function adoptIronicDatabase(db: Database, revision: string): Promise<void> {
  const verdict = judgeAlembicRevision(revision);
  if (verdict === 'too-old') {
    throw new SchemaVersionError(
      `The database is at Ironic alembic revision ${revision}, older than Ironic 21.4.4 (${IRONIC_21_4_4_HEAD}). ` +
      'Upgrade it with Python Ironic 21.4.4 `ironic-dbsync upgrade` first.');
  }
  if (verdict === 'unknown') {
    throw new SchemaVersionError(`The database has an unknown Ironic alembic revision ${revision}; refusing to adopt it.`);
  }
  await db.knex.migrate.list(migratorConfig(db)); // creates knex's bookkeeping tables
  await db.knex(MIGRATIONS_TABLE).insert({ name: BASELINE_MIGRATION, batch: 1, migration_time: new Date() });
}

export async function upgrade(db: Database): Promise<string[]> {
  const knex = db.knex;
  const revision = await alembicRevision(knex);
  if (revision !== null && !(await hasAppliedMigrations(knex))) await adoptIronicDatabase(db, revision);
  const [, applied] = await knex.migrate.latest(migratorConfig(db)) as [number, string[]];
  return applied;
}

/** Like Ironic's create_schema: only on an empty database. */
export async function createSchema(db: Database): Promise<string[]> {
  const knex = db.knex;
  if (await knex.schema.hasTable('nodes') || await hasAppliedMigrations(knex)) {
    throw new SchemaVersionError('create_schema refuses to run on a database that already has a schema; use upgrade.');
  }
  const [, applied] = await knex.migrate.latest(migratorConfig(db)) as [number, string[]];
  return applied;
}

export async function version(db: Database): Promise<SchemaVersion> {
  const knex = db.knex;
  const alembic = await alembicRevision(knex);
  const hasTable = await knex.schema.hasTable(MIGRATIONS_TABLE);
  const [completed, pending] = hasTable
    ? await knex.migrate.list(migratorConfig(db)) as [Array<{ name: string }>, Array<{ file: string }>]
    : [[], []];
  const names = completed.map((m) => m.name).sort();
  return {
    head: names.length ? names[names.length - 1].replace(/\.js$/, '') : null,
    alembic,
    pending: pending.map((p) => p.file.replace(/\.js$/, '')),
  };
}

/** One line for `ironic-dbsync version`: our head, then the alembic revision when present. */
export function describeVersion(v: SchemaVersion): string {
  const ours = v.head ?? 'None';
  const pending = v.pending.length ? ` (pending: ${v.pending.join(', ')})` : '';
  return v.alembic ? `${ours}${pending} (alembic ${v.alembic})` : `${ours}${pending}`;
}
