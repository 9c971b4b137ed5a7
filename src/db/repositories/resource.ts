/**
 * The common shape of Ironic's uuid-identified tables (ports, portgroups, chassis, allocations,
 * volume connectors/targets, ...): create, get by id/uuid/name, filtered paginated list,
 * update, destroy. Each repository instantiates it with its table, noun and duplicate mapping.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { decodeRow } from '../codec';
import type { TableName } from '../columns';
import type { Database } from '../connection';
import { InvalidParameterError, NotFoundError } from '../errors';
import { applyPage, loadMarker, PageOptions } from './paginate';
import { DuplicateMapper, Executor, insertRow, updateWhere } from './table-access';

interface ResourceSpec {
  table: TableName;
  /** Ironic's noun for NotFound errors: "Port" -> PortNotFound. */
  noun: string;
  /** Maps duplicate columns to the typed error, given the values being written. */
  duplicate: (values: Record<string, unknown>) => DuplicateMapper;
  /** Whether the table has a unique `name` column usable as an identifier. */
  hasName?: boolean;
}

type FilterApplier<F> = (query: Knex.QueryBuilder, filters: F, db: Database) => void;

const UUID_LIKE = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

interface Resource<R, F> {
  create(db: Database, values: Record<string, unknown>, ex?: Executor): Promise<R>;
  /** number -> id, UUID-like -> uuid, else name (when the table has names). */
  get(db: Database, ident: number | string, ex?: Executor): Promise<R>;
  find(db: Database, where: Record<string, unknown>): Promise<R | null>;
  list(db: Database, filters?: F, page?: PageOptions): Promise<R[]>;
  update(db: Database, ident: number | string, values: Record<string, unknown>): Promise<R>;
  destroy(db: Database, ident: number | string): Promise<void>;
  whereFor(ident: number | string): Record<string, unknown>;
}

export function defineResource<R extends { id: number }, F>(spec: ResourceSpec, applyFilters: FilterApplier<F>):
  Resource<R, F> {
  const whereFor = (ident: number | string): Record<string, unknown> => {
    if (typeof ident === 'number') return { id: ident };
    if (UUID_LIKE.test(ident) || !spec.hasName) return { uuid: ident };
    return { name: ident };
  };

  const get = async (db: Database, ident: number | string, ex: Executor = db.knex): Promise<R> => {
    const row = await ex(spec.table).where(whereFor(ident)).first() as Record<string, unknown> | undefined;
    if (!row) throw new NotFoundError(spec.noun, ident);
    return decodeRow<R>(spec.table, row);
  };

  return {
    whereFor,
    get,
    async find(db, where) {
      const row = await db.knex(spec.table).where(where).first() as Record<string, unknown> | undefined;
      return row ? decodeRow<R>(spec.table, row) : null;
    },
    async create(db, values, ex = db.knex) {
      const row = { ...values, uuid: values.uuid ?? randomUUID() };
      const id = await insertRow(ex, db.dialect, spec.table, row, spec.duplicate(row));
      return get(db, id, ex);
    },
    async list(db, filters, page = {}) {
      const marker = await loadMarker(db.knex, spec.table, page.marker,
        () => new NotFoundError(spec.noun, String(page.marker)));
      const query = db.knex(spec.table).select(`${spec.table}.*`);
      if (filters) applyFilters(query, filters, db);
      applyPage(query, spec.table, page, marker);
      const rows = await query as Array<Record<string, unknown>>;
      return rows.map((r) => decodeRow<R>(spec.table, r));
    },
    async update(db, ident, values) {
      if (values.uuid !== undefined) {
        throw new InvalidParameterError(`Cannot overwrite UUID for an existing ${spec.noun}.`);
      }
      const current = await get(db, ident);
      const n = await updateWhere(db.knex, db.dialect, spec.table, { id: current.id }, values, spec.duplicate(values));
      if (n === 0) throw new NotFoundError(spec.noun, ident);
      return get(db, current.id);
    },
    async destroy(db, ident) {
      const n = await db.knex(spec.table).where(whereFor(ident)).delete();
      if (n === 0) throw new NotFoundError(spec.noun, ident);
    },
  };
}
