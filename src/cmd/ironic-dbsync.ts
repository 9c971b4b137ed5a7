/** `ironic-dbsync upgrade | create_schema | version`: schema management, as Ironic's command. */
import { bootstrap, openConfiguredDatabase, fatal, crash } from './bootstrap';
import { upgrade, createSchema, version } from '../db/sync';

async function main(): Promise<void> {
  const { conf, positional } = bootstrap(process.argv.slice(2));
  const command = positional[0] ?? 'upgrade';
  const db = await openConfiguredDatabase(conf);
  try {
    if (command === 'upgrade') await upgrade(db);
    else if (command === 'create_schema') await createSchema(db);
    else if (command === 'version') printVersion(await version(db));
    else fatal(`Unknown command '${command}'; use upgrade, create_schema or version`);
  } catch (err) {
    fatal((err as Error).message);
  } finally {
    await db.close();
  }
}

function printVersion(v: Awaited<ReturnType<typeof version>>): void {
  process.stdout.write(`${v.head ?? 'None'}\n`);
  if (v.alembic) process.stdout.write(`alembic: ${v.alembic}\n`);
  if (v.pending.length) process.stdout.write(`pending: ${v.pending.join(', ')}\n`);
}

main().catch(crash);
