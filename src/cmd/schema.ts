/**
 * The embedded default creates and upgrades its SQLite schema by itself, so `npm start` works on
 * a fresh machine. A configured deployment runs `ironic-dbsync upgrade`, as with Ironic; starting
 * against a database that is behind stops with that advice.
 */
import type { Database } from '../db/connection';
import { upgrade, version } from '../db/sync';
import { fatal } from './bootstrap';

export async function prepareSchema(db: Database, embedded: boolean): Promise<void> {
  if (embedded || db.dialect === 'sqlite') {
    await upgrade(db);
    return;
  }
  const { head, pending } = await version(db);
  if (head === null || pending.length > 0) {
    fatal(`The database schema is not up to date (${head === null ? 'no ironic-ts schema' : `${pending.length} migrations pending`}); run: ironic-dbsync --config-file ... upgrade`);
  }
}
