/**
 * Query-string handling shared by the list endpoints, as Ironic's args.validate and api utils do it:
 * unknown arguments refused, limit/sort_dir checks, and the fields/detail combination rules.
 */
import { InvalidParameterValue, MissingParameterValue, NotAcceptable } from '../../common/errors';
import { pyRepr } from '../../common/python/repr';
import { emptyDict } from '../../common/own-keys';
import { pecanParams } from '../pecan-params';
import type { ApiContext } from '../state';
import * as args from './args';
import { V } from '../versions';
import { checkNodeVersionedFields } from './node-field-versions';

/**
 * The query arguments (and a DELETE body's), refusing any the handler does not take ("Unexpected arguments: ...").
 */
export function readQuery(ctx: ApiContext, accepted: readonly string[], opts: { bodyIsData?: boolean } = {}):
  Record<string, string | undefined> {
  const out = emptyDict<string | undefined>();
  const extra: string[] = [];
  // A handler that takes the body as its data (@method.body) leaves the body's names out of its arguments.
  const params = opts.bodyIsData ? pecanParams(ctx, false) : pecanParams(ctx);
  for (const [key, value] of Object.entries(params)) {
    if (!accepted.includes(key)) extra.push(key);
    // A repeated parameter reaches Ironic's validators as a list, so they refuse it naming the list.
    out[key] = typeof value === 'string' ? value : pyRepr(value);
  }
  if (extra.length > 0) throw new InvalidParameterValue(`Unexpected arguments: ${extra.join(', ')}`);
  return out;
}

/**
 * The one argument of a DELETE handler, the object's ident: from the path, or, on the collection's own
 * path, from the query or body as pecan fills it (then missing is Ironic's MissingParameterValue). Any
 * other argument is unexpected, the ident given twice too (Ironic: a TypeError, 500).
 */
export function deleteIdent(ctx: ApiContext, name: string, fromPath: string | undefined): string {
  if (fromPath !== undefined) {
    readQuery(ctx, []);
    return fromPath;
  }
  const given = readQuery(ctx, [name])[name];
  if (given === undefined) throw new MissingParameterValue(`Missing mandatory parameter: ${name}`);
  return given;
}

/** validate_limit: [api]max_limit when absent, positive, capped at max_limit. */
export function validateLimit(ctx: ApiContext, limit: number | null): number {
  const max = ctx.state.deps.conf.int('api', 'max_limit');
  if (limit === null) return max;
  if (limit <= 0) throw new InvalidParameterValue('Limit must be positive');
  return Math.min(max, limit);
}

/** A sort_key the resource cannot sort by (its JSON columns, mostly). */
export function checkSortKey(sortKey: string, unsortable: readonly string[]): void {
  if (unsortable.includes(sortKey)) {
    throw new InvalidParameterValue(`The sort_key value ${sortKey} is an invalid field for sorting`);
  }
}

export function validateSortDir(dir: string | null): 'asc' | 'desc' {
  const value = dir ?? 'asc';
  if (value !== 'asc' && value !== 'desc') {
    throw new InvalidParameterValue(`Invalid sort direction: ${value}. Acceptable values are 'asc' or 'desc'`);
  }
  return value;
}

/** check_allow_specify_fields: `fields=` needs 1.8. */
export function checkAllowFields(ctx: ApiContext, fields: string[] | null): void {
  if (fields !== null && ctx.state.version < V.FIELDS_SELECTOR) throw new NotAcceptable();
}

/**
 * get_request_return_fields: `detail` needs 1.43 (or the resource's own check), never with `fields`;
 * neither given → the resource's default list fields.
 */
export function returnFields(ctx: ApiContext, fields: string[] | null, detail: boolean | null, rawDetail: string | undefined,
  defaults: readonly string[], detailAllowed = ctx.state.version >= V.DETAIL_QUERY): string[] | null {
  if (detail !== null && !detailAllowed) {
    throw new InvalidParameterValue(`Invalid query parameter ?detail=${detail ? 'True' : 'False'} received.`);
  }
  if (fields !== null && detail) throw new InvalidParameterValue('Can not specify ?detail=True and fields in the same request.');
  if (fields === null && !detail) return [...defaults];
  return fields;
}

/** The arguments Ironic repeats in next links, in get_next's order: sort_key, sort_dir, extras, detail, fields. */
export function nextArgs(sortKey: string, sortDir: string, fields: string[] | null, detail: boolean | null,
  extra: [string, string][] = []): [string, string][] {
  const args: [string, string][] = [['sort_key', sortKey], ['sort_dir', sortDir]];
  args.push(...extra);
  if (detail !== null) args.push(['detail', detail ? 'True' : 'False']);
  if (fields && fields.length > 0) args.push(['fields', fields.join(',')]);
  return args;
}

/** An args.* validator, as a handler's signature declares it for one query argument. */
type ArgReader = (name: string, value: string | undefined) => unknown;

/** A handler's query arguments in its signature's order (Ironic validates them in that order). */
type ArgSpec = Readonly<Record<string, ArgReader>>;

type Camel<S extends string> = S extends `${infer H}_${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S;

/** The validated arguments by camelCase name, and `detail` as the client spelt it (the fields rules quote it). */
export type ListArgsOf<S extends ArgSpec> = { -readonly [K in keyof S & string as Camel<K>]: ReturnType<S[K]> }
  & { rawDetail: string | undefined };

/** marker, limit, sort_key and sort_dir as every list signature declares them, with their defaults. */
export const PAGE_ARGS = {
  marker: args.uuid,
  limit: args.integer,
  sort_key: (name: string, value: unknown): string => args.string(name, value) ?? 'id',
  sort_dir: (name: string, value: unknown): string => args.string(name, value) ?? 'asc',
} as const;

const camel = (name: string): string => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** args.validate: each argument of `spec` checked in order, over query values already read. */
export function validateListArgs<S extends ArgSpec>(q: Record<string, string | undefined>, spec: S): ListArgsOf<S> {
  const out: Record<string, unknown> = { rawDetail: q.detail };
  for (const [name, read] of Object.entries(spec)) out[camel(name)] = read(name, q[name]);
  return out as ListArgsOf<S>;
}

/** The query read (only `accepted` arguments, all of the spec's by default) and validated by `spec`. */
export function readListArgs<S extends ArgSpec>(ctx: ApiContext, spec: S,
  accepted: readonly string[] = Object.keys(spec)): ListArgsOf<S> {
  return validateListArgs(readQuery(ctx, accepted), spec);
}

/** A list's validated paging arguments, as readListArgs returns them. */
interface PageArgs {
  fields: string[] | null;
  detail: boolean | null;
  rawDetail: string | undefined;
  limit: number | null;
  sortKey: string;
  sortDir: string;
}

/**
 * What the conductor, deploy template, runbook and inspection rule lists check after reading their
 * arguments, in Ironic's order: fields and sort_key against the field versions, the fields to
 * return, limit, sort_dir, and the keys the resource cannot sort by.
 */
export function checkPage(ctx: ApiContext, a: PageArgs, defaultFields: readonly string[], unsortable: readonly string[]):
  { fields: string[] | null; limit: number; sortDir: 'asc' | 'desc' } {
  checkNodeVersionedFields(ctx.state.version, a.fields);
  checkNodeVersionedFields(ctx.state.version, [a.sortKey]);
  const fields = returnFields(ctx, a.fields, a.detail, a.rawDetail, defaultFields);
  const limit = validateLimit(ctx, a.limit);
  const sortDir = validateSortDir(a.sortDir);
  checkSortKey(a.sortKey, unsortable);
  return { fields, limit, sortDir };
}
