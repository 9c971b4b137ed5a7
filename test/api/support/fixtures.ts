/** Small data helpers for the API tests: nodes straight in the database, a live conductor row. */
import { randomUUID } from 'node:crypto';
import type { Database } from '../../../src/db/connection';
import type { NodeRecord } from '../../../src/db/models';
import * as conductors from '../../../src/db/repositories/conductors';
import * as nodes from '../../../src/db/repositories/nodes';

export async function makeNode(db: Database, values: Partial<NodeRecord> = {}): Promise<NodeRecord> {
  return nodes.create(db, { uuid: randomUUID(), driver: 'fake-hardware', provision_state: 'enroll', ...values });
}

/** Stamps the test conductor's heartbeat so it counts as alive at once (registration may leave it unset). */
export async function heartbeatConductor(db: Database, hostname = 'test-conductor'): Promise<void> {
  await conductors.touch(db, hostname);
}

export async function countRows(db: Database, table: string): Promise<number> {
  const row = await db.knex(table).count({ n: '*' }).first() as { n: number | string };
  return Number(row.n);
}

/** Ironic's fault body: the faultstring inside error_message. */
export function faultOf(json: unknown): string {
  const outer = json as { error_message: string };
  const inner = JSON.parse(outer.error_message) as { faultstring?: string; description?: string };
  return inner.faultstring ?? inner.description ?? '';
}
