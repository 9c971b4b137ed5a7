/**
 * The embedded default creates and upgrades its SQLite schema by itself, so `npm start` works on
 * a fresh machine. A configured deployment runs `ironic-dbsync upgrade`, as with Ironic; starting
 * against a database that is behind stops with that advice.
 */
import type { Database } from '../db/connection';
import { upgrade, pendingMigrations } from '../db/sync';
import { fatal } from './bootstrap';

export async function prepareSchema(db: Database, embedded: boolean): Promise<void> {
  if (embedded || db.dialect === 'sqlite') {
    await upgrade(db);
    return;
  }
  const pending = await pendingMigrations(db);
  if (pending.length > 0) fatal(`The database schema is not up to date (${pending.length} migrations pending); run: ironic-dbsync --config-file ... upgrade`);
}
