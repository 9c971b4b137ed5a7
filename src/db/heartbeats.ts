/**
 * Ironic 29.0.5 on SQLite (utils.is_ironic_using_sqlite): conductors do not heartbeat, sparing
 * SQLite's single writer, so liveness for the hash ring, the driver list and takeover rests on the
 * online flag alone. The conductors API still judges `alive` by the last heartbeat, so a conductor
 * shows alive=false once heartbeat_timeout has passed since it registered, as 29.0.5's does.
 */
import type { Database } from './connection';

export function conductorsHeartbeat(db: Pick<Database, 'dialect'>): boolean {
  return db.dialect !== 'sqlite';
}
