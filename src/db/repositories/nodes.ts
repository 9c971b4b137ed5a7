/**
 * Nodes: create, lookups, filtered/paginated listing, update with optional optimistic check,
 * and destroy with Ironic's cascade, each multi-row write in one transaction.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { decodeRow } from '../codec';
import type { Database } from '../connection';
import { ConcurrentUpdateError, DuplicateError, InvalidParameterError, NotFoundError } from '../errors';
import type { NodeRecord, NodeWithRelations, Writable } from '../models';
import { RawRows, selectArrays } from '../raw-select';
import { applyNodeFilters, NodeFilters } from './node-filters';
import { attachRelations, traitsByNode } from './node-relations';
import { applyPage, loadMarker, PageOptions } from './paginate';
import { Executor, insertRow, updateWhere } from './table-access';

export type { NodeFilters } from './node-filters';
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

/** Creates a node with Ironic's defaults (uuid, power_state NULL, provision_state "enroll"). */
export async function create(db: Database, values: NodeValues): Promise<NodeWithRelations> {
  const row: NodeValues = {
    ...values,
    uuid: values.uuid ?? randomUUID(),
    provision_state: values.provision_state === undefined ? 'enroll' : values.provision_state,
  };
  const id = await insertRow(db.knex, db.dialect, 'nodes', row, nodeDuplicate(row, String(row.uuid)));
  return loadOne(db.knex, id);
}

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

export interface NodeListOptions extends PageOptions {
  /** Skip loading traits/tags (Ironic's NodeBase queries); records then carry empty lists. */
  withoutRelations?: boolean;
  /** Only these node columns are read (others come back null); all of them when absent. */
  columns?: readonly string[];
  /** JSON columns come back as StoredJson (their stored text), for views that only pass them on. */
  storedJson?: boolean;
}

/** The page's query, wrapped: a knex builder is thenable, so returning it bare from an async function would run it. */
async function pageQuery(db: Database, filters: NodeFilters, opts: NodeListOptions): Promise<{ query: Knex.QueryBuilder }> {
  const marker = await loadMarker(db.knex, 'nodes', opts.marker, () => new NotFoundError('Node', String(opts.marker)));
  const query = db.knex('nodes').select(opts.columns ? opts.columns.map((c) => `nodes.${c}`) : 'nodes.*');
  applyNodeFilters(query, filters, db.dialect);
  applyPage(query, 'nodes', opts, marker);
  return { query };
}

export async function list(db: Database, filters: NodeFilters = {}, opts: NodeListOptions = {}):
  Promise<NodeWithRelations[]> {
  const rows = await (await pageQuery(db, filters, opts)).query as Array<Record<string, unknown>>;
  const decodeOpts = { storedJson: opts.storedJson };
  const nodes = rows.map((r) => decodeRow<NodeRecord>('nodes', r, decodeOpts));
  if (opts.withoutRelations) return nodes.map((n) => Object.assign(n, { traits: [], tags: [] }));
  return attachRelations(db.knex, nodes);
}

/** A page of nodes as the driver returns them (column list plus value arrays), and their traits unless skipped. */
export interface NodePage extends RawRows {
  traits: Map<number, string[]> | null;
}

/**
 * The rows `list` would decode, left undecoded for views that write them straight to the wire;
 * `columns` must include id when traits are wanted.
 */
export async function listPage(db: Database, filters: NodeFilters, opts: NodeListOptions & { columns: readonly string[] }):
  Promise<NodePage> {
  const { query } = await pageQuery(db, filters, opts);
  const page = await selectArrays(db, query, opts.columns.map((c) => `nodes.${c}`));
  if (opts.withoutRelations) return { ...page, traits: null };
  const idAt = page.columns.indexOf('id');
  return { ...page, traits: await traitsByNode(db.knex, page.rows.map((r) => Number(r[idAt]))) };
}

export async function count(db: Database, filters: NodeFilters = {}): Promise<number> {
  const query = db.knex('nodes').count({ n: '*' });
  applyNodeFilters(query, filters, db.dialect);
  const row = await query.first() as { n?: number | string } | undefined;
  return Number(row?.n ?? 0);
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

/** Ironic's _do_update_node side effects of a provision_state change. */
function provisionSideEffects(current: NodeRecord, values: NodeValues, now: Date): NodeValues {
  if (values.provision_state === undefined) return values;
  const out: NodeValues & { provision_updated_at?: Date | null } = { ...values, provision_updated_at: now };
  const fromInspect = INSPECT_STATES.has(current.provision_state ?? '');
  if (values.provision_state === 'inspecting') {
    out.inspection_started_at = now;
    out.inspection_finished_at = null;
  } else if (fromInspect && values.provision_state === 'manageable') {
    out.inspection_finished_at = now;
    out.inspection_started_at = null;
  } else if (fromInspect && values.provision_state === 'inspect failed') {
    out.inspection_started_at = null;
  }
  return out;
}

/**
 * Updates a node in one transaction (row locked on MySQL). `expect` makes it optimistic:
 * if the row no longer matches, ConcurrentUpdateError and nothing is written.
 */
export async function update(db: Database, ident: NodeIdent, values: NodeValues, expect?: NodeExpectation):
  Promise<NodeWithRelations> {
  if ('uuid' in values && values.uuid !== undefined) {
    throw new InvalidParameterError('Cannot overwrite UUID for an existing Node.');
  }
  const id = await db.transaction(async (trx) => {
    const current = decodeRow<NodeRecord>('nodes', await fetchRaw(trx, ident, true));
    if (!checkExpectation(current, expect)) throw new ConcurrentUpdateError('Node', current.uuid);
    const now = new Date();
    await updateWhere(trx, db.dialect, 'nodes', { id: current.id },
      { ...provisionSideEffects(current, values, now), updated_at: now }, nodeDuplicate(values, current.uuid));
    return current.id;
  });
  return loadOne(db.knex, id);
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
