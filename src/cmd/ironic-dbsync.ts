/**
 * `ironic-dbsync upgrade | create_schema | version | online_data_migrations`: schema management,
 * as Ironic's command (same sub-commands, messages and exit codes).
 */
import { bootstrap, openConfiguredDatabase, fatal, crash } from './bootstrap';
import { upgrade, createSchema, version } from '../db/sync';
import { objectVersionsCompatible, updateToLatestVersions } from '../db/online-migrations';
import type { Database } from '../db/connection';
import { splitLongOption } from '../conf/cli';

/** Ironic's exit code for a bad --max-count or --option. */
const USAGE_ERROR = 127;
/** Ironic's exit code for a database this release cannot migrate. */
const INCOMPATIBLE = 2;
const INCOMPATIBLE_MESSAGE = 'The database is not compatible with this release of ironic (21.4.4). Please run ' +
  '"ironic-dbsync online_data_migrations" using the previous release.\n';
/** Ironic runs unbounded migrations in batches of this many rows. */
const BATCH = 50;

interface MigrationArgs {
  maxCount: number | null;
  options: string[];
}

function migrationArgs(argv: string[]): MigrationArgs {
  const out: MigrationArgs = { maxCount: null, options: [] };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = splitLongOption(argv[i]);
    const value = inline ?? argv[++i];
    if (flag === '--max-count' && value !== undefined && /^-?\d+$/.test(value)) out.maxCount = Number(value);
    else if (flag === '--option' && value !== undefined) out.options.push(value);
    else fatal(`ironic-dbsync online_data_migrations: unrecognized arguments: ${argv.join(' ')}`);
  }
  return out;
}

/** One pass over the migrations; true when fewer than maxCount rows were migrated (all done). */
async function runMigrations(db: Database, maxCount: number): Promise<boolean> {
  const { total, migrated } = await updateToLatestVersions(db, maxCount);
  process.stdout.write(`update_to_latest_versions() migrated ${migrated} of ${total} objects.\n`);
  return migrated < maxCount;
}

/** _run_online_data_migrations: the exit code (0 done, 1 re-run needed, 127 bad arguments). */
async function onlineDataMigrations(db: Database, args: MigrationArgs): Promise<number> {
  if (!(await objectVersionsCompatible(db))) {
    process.stderr.write(INCOMPATIBLE_MESSAGE);
    return INCOMPATIBLE;
  }
  for (const option of args.options) {
    // <migration>.<option>=<value>. Well-formed options are not used: update_to_latest_versions
    // takes none (Python Ironic fails with a TypeError when one names it; ironic-ts ignores it).
    if (!/^[^.]+\.[^=]+=/.test(option)) {
      process.stdout.write(`Malformed option ${option}\n`);
      return USAGE_ERROR;
    }
  }
  if (args.maxCount === null) {
    process.stdout.write(`Running batches of ${BATCH} until migrations have been completed.\n`);
    while (!(await runMigrations(db, BATCH))) { /* next batch */ }
    process.stdout.write('Data migrations have completed.\n');
    return 0;
  }
  if (args.maxCount < 1) {
    process.stderr.write('"max-count" must be a positive value.\n');
    return USAGE_ERROR;
  }
  const done = await runMigrations(db, args.maxCount);
  process.stdout.write(done ? 'Data migrations have completed.\n' : 'Data migrations have not completed. Please re-run.\n');
  return done ? 0 : 1;
}

async function main(): Promise<void> {
  const { conf, positional } = bootstrap(process.argv.slice(2));
  const [command = 'upgrade', ...rest] = positional;
  const db = await openConfiguredDatabase(conf);
  let code = 0;
  try {
    if (command === 'upgrade') await upgrade(db);
    else if (command === 'create_schema') await createSchema(db);
    else if (command === 'version') printVersion(await version(db));
    else if (command === 'online_data_migrations') code = await onlineDataMigrations(db, migrationArgs(rest));
    else fatal(`Unknown command '${command}'; use upgrade, create_schema, version or online_data_migrations`);
  } catch (err) {
    fatal((err as Error).message);
  } finally {
    await db.close();
  }
  process.exitCode = code;
}

function printVersion(v: Awaited<ReturnType<typeof version>>): void {
  process.stdout.write(`${v.head ?? 'None'}\n`);
  if (v.alembic) process.stdout.write(`alembic: ${v.alembic}\n`);
  if (v.pending.length) process.stdout.write(`pending: ${v.pending.join(', ')}\n`);
}

main().catch(crash);
