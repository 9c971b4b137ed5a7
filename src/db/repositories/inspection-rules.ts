/** Inspection rules (newer Ironic's built-in inspector rules). */
import type { Database } from '../connection';
import { DuplicateError } from '../errors';
import type { InspectionRuleRecord, Writable } from '../models';
import type { PageOptions } from './paginate';
import { defineResource } from './resource';

export interface InspectionRuleFilters {
  phase?: string;
  scope?: string;
}

const resource = defineResource<InspectionRuleRecord, InspectionRuleFilters>(
  { table: 'inspection_rules', noun: 'InspectionRule',
    duplicate: (values) => (columns) => new DuplicateError('InspectionRuleAlreadyExists',
      `A rule with UUID ${String(values.uuid)} already exists.`, columns) },
  (query, f) => {
    if (f.phase !== undefined) query.where('inspection_rules.phase', f.phase);
    if (f.scope !== undefined) query.where('inspection_rules.scope', f.scope);
  });

export type InspectionRuleValues = Writable<InspectionRuleRecord>;

export const create = (db: Database, values: InspectionRuleValues): Promise<InspectionRuleRecord> =>
  resource.create(db, values);
export const get = (db: Database, ident: number | string): Promise<InspectionRuleRecord> => resource.get(db, ident);
export const list = (db: Database, filters: InspectionRuleFilters = {}, page: PageOptions = {}):
  Promise<InspectionRuleRecord[]> => resource.list(db, filters, page);
export const update = (db: Database, ident: number | string, values: InspectionRuleValues):
  Promise<InspectionRuleRecord> => resource.update(db, ident, values);
export const destroy = (db: Database, ident: number | string): Promise<void> => resource.destroy(db, ident);
