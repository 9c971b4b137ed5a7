/**
 * One node's row: the identifier rule, lookups, create (with traits), update with optional
 * optimistic check, a task's field writes, and destroy with Ironic's cascade, each multi-row
 * write in one transaction.
 */
import { randomUUID } from 'node:crypto';
import { decodeRow } from '../../codec';
import type { Database } from '../../connection';
import { ConcurrentUpdateError, DuplicateError, InvalidParameterError, NotFoundError } from '../../errors';
import type { NodeRecord, NodeWithRelations, Writable } from '../../models';
import { attachRelations } from '../node-relations';
import { Executor, insertRow, updateWhere } from '../table-access';

export type NodeIdent = number | string;
export type NodeValues = Writable<NodeRecord>;

const UUID_LIKE = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

function nodeDuplicate(values: NodeValues, node: string) {
  return (columns: string[]) => {
    if (columns.includes('name')) {
      return new DuplicateError('DuplicateName', `A node with name ${values.name} already exists.`, columns);
    }
    if (columns.includes('instance_uuid')) {
      return new DuplicateError('InstanceAssociated',
        `Instance ${values.instance_uuid} is already associated with a node, it cannot be associated with this other node ${node}`,
        columns);
    }
    return new DuplicateError('NodeAlreadyExists', `A node with UUID ${values.uuid ?? node} already exists.`, columns);
  };
}

/** WHERE for an ident: number -> id, UUID-like -> uuid, anything else -> name. */
export function nodeWhere(ident: NodeIdent): Record<string, unknown> {
  if (typeof ident === 'number') return { id: ident };
  return UUID_LIKE.test(ident) ? { uuid: ident } : { name: ident };
}

async function fetchRaw(ex: Executor, ident: NodeIdent, forUpdate = false): Promise<Record<string, unknown>> {
  const q = ex('nodes').where(nodeWhere(ident)).first();
  if (forUpdate) q.forUpdate();
  const row = await q as Record<string, unknown> | undefined;
  if (!row) throw new NotFoundError('Node', ident);
  return row;
}

async function loadOne(ex: Executor, ident: NodeIdent): Promise<NodeWithRelations> {
  const node = decodeRow<NodeRecord>('nodes', await fetchRaw(ex, ident));
  return (await attachRelations(ex, [node]))[0];
}

/** objects.Trait's VERSION, stamped on the rows a create inserts, as Ironic does. */
const TRAIT_OBJECT_VERSION = '1.0';

/**
 * Creates a node with Ironic's defaults (uuid, power_state NULL, provision_state "enroll") and its
 * traits: with traits the rows go in together or not at all.
 */
export async function create(db: Database, values: NodeValues, traits: readonly string[] = []): Promise<NodeWithRelations> {
  const row: NodeValues = {
    ...values,
    uuid: values.uuid ?? randomUUID(),
    provision_state: values.provision_state === undefined ? 'enroll' : values.provision_state,
  };
  const insert = async (ex: Executor): Promise<number> => {
    const id = await insertRow(ex, db.dialect, 'nodes', row, nodeDuplicate(row, String(row.uuid)));
    for (const trait of traits) {
      await insertRow(ex, db.dialect, 'node_traits', { node_id: id, trait, version: TRAIT_OBJECT_VERSION });
    }
    return id;
  };
  const id = traits.length === 0 ? await insert(db.knex) : await db.transaction(insert);
  return loadOne(db.knex, id);
}

/** The node row alone, by id, UUID or name (what the conductor's tasks hold). */
export async function find(db: Database, ident: NodeIdent): Promise<NodeRecord> {
  return decodeRow<NodeRecord>('nodes', await fetchRaw(db.knex, ident));
}

/** The node with its traits and tags. */
export async function get(db: Database, ident: NodeIdent): Promise<NodeWithRelations> {
  return loadOne(db.knex, ident);
}

/** NotFoundError unless the node exists: the check alone, without loading the node. */
export async function ensureExists(db: Database, ident: NodeIdent): Promise<void> {
  const row = await db.knex('nodes').first('id').where(nodeWhere(ident)) as { id: number } | undefined;
  if (!row) throw new NotFoundError('Node', ident);
}

export async function getByInstance(db: Database, instanceUuid: string): Promise<NodeWithRelations> {
  const row = await db.knex('nodes').where({ instance_uuid: instanceUuid }).first() as Record<string, unknown> | undefined;
  if (!row) throw new NotFoundError('Instance', instanceUuid);
  return (await attachRelations(db.knex, [decodeRow<NodeRecord>('nodes', row)]))[0];
}

/** Values the caller expects the row to still have; any mismatch fails the update. */
export interface NodeExpectation {
  updated_at?: Date | null;
  reservation?: string | null;
  provision_state?: string | null;
}

function checkExpectation(current: NodeRecord, expect: NodeExpectation | undefined): boolean {
  if (!expect) return true;
  if (expect.updated_at !== undefined) {
    const have = current.updated_at?.getTime() ?? null;
    const want = expect.updated_at?.getTime() ?? null;
    if (have !== want) return false;
  }
  if (expect.reservation !== undefined && current.reservation !== expect.reservation) return false;
  if (expect.provision_state !== undefined && current.provision_state !== expect.provision_state) return false;
  return true;
}

const INSPECT_STATES = new Set(['inspecting', 'inspect wait']);

/** Ironic's _do_update_node: the stamps a provision_state write from `prev` adds. */
function provisionStamps(prev: string | null, next: string | null, now: Date): NodeValues {
  const fromInspect = INSPECT_STATES.has(prev ?? '');
  if (next === 'inspecting') return { provision_updated_at: now, inspection_started_at: now, inspection_finished_at: null };
  if (fromInspect && next === 'manageable') {
    return { provision_updated_at: now, inspection_finished_at: now, inspection_started_at: null };
  }
  if (fromInspect && next === 'inspect failed') return { provision_updated_at: now, inspection_started_at: null };
  return { provision_updated_at: now };
}

/** What a node write sets: the changes, their stamps and updated_at. */
type WrittenNode = NodeValues & { updated_at: Date };

/**
 * The one node write (dbapi update_node): `changes`, the stamps a provision_state write adds, and
 * updated_at. Returns all it wrote, for callers that hold the node.
 */
async function writeNode(ex: Executor, db: Database, current: Pick<NodeRecord, 'id' | 'uuid' | 'provision_state'>,
  changes: NodeValues): Promise<WrittenNode> {
  if ('uuid' in changes && changes.uuid !== undefined) {
    throw new InvalidParameterError('Cannot overwrite UUID for an existing Node.');
  }
  const now = new Date();
  const stamps = changes.provision_state === undefined ? {} : provisionStamps(current.provision_state, changes.provision_state, now);
  const written: WrittenNode = { ...changes, ...stamps, updated_at: now };
  await updateWhere(ex, db.dialect, 'nodes', { id: current.id }, written, nodeDuplicate(changes, current.uuid));
  return written;
}

/**
 * Updates a node in one transaction (row locked on MySQL). `expect` makes it optimistic:
 * if the row no longer matches, ConcurrentUpdateError and nothing is written.
 */
export async function update(db: Database, ident: NodeIdent, values: NodeValues, expect?: NodeExpectation):
  Promise<NodeWithRelations> {
  const id = await db.transaction(async (trx) => {
    const current = decodeRow<NodeRecord>('nodes', await fetchRaw(trx, ident, true));
    if (!checkExpectation(current, expect)) throw new ConcurrentUpdateError('Node', current.uuid);
    await writeNode(trx, db, current, values);
    return current.id;
  });
  return loadOne(db.knex, id);
}

/**
 * A conductor task's save of the node it holds: `changes` against `saved`, the row as the task
 * last loaded or saved it. Returns all it wrote (with the provision stamps and updated_at).
 */
export async function updateFields(db: Database, saved: Pick<NodeRecord, 'id' | 'uuid' | 'provision_state'>,
  changes: NodeValues): Promise<WrittenNode> {
  return writeNode(db.knex, db, saved, changes);
}

/** Tables whose rows belong to a node and go with it (Ironic's destroy_node, plus firmware). */
const NODE_CHILD_TABLES = ['ports', 'portgroups', 'node_tags', 'node_traits', 'volume_connectors',
  'volume_targets', 'bios_settings', 'allocations', 'node_history', 'node_inventory', 'firmware_information'];

export async function destroy(db: Database, ident: NodeIdent): Promise<void> {
  await db.transaction(async (trx) => {
    const row = await fetchRaw(trx, ident, true);
    const id = Number(row.id);
    // Orphan the allocation link first: allocations -> nodes and nodes -> allocations reference each other.
    await trx('nodes').where({ id }).update({ allocation_id: null });
    for (const table of NODE_CHILD_TABLES) {
      if (table === 'firmware_information' && !(await trx.schema.hasTable(table))) continue;
      await trx(table).where({ node_id: id }).delete();
    }
    await trx('nodes').where({ id }).delete();
  });
}
