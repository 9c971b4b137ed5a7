/**
 * GET /v1/nodes, /v1/nodes/detail and /v1/chassis/{uuid}/nodes[/detail] (NodesController.get_all,
 * detail and _get_nodes_collection of Ironic 21.4.4): argument checks in Ironic's order, filters,
 * sorting and marker paging in one query, the conductor filter applied to the page afterwards.
 */
import { listScope } from '../policy/scope';
import { InvalidParameterValue, NotAcceptable } from '../../common/errors';
import { ChassisNotFound, IronicError } from '../../common/errors';
import { decodeRow } from '../../db/codec';
import type { NodeTraitRecord } from '../../db/models';
import {
  API_FULFILLED_FIELDS, MODEL_ATTRIBUTES, NODE_LIST_FILTERS, NodeListFilter, UNSORTABLE_FIELDS,
} from '../../db/node-field-lists';
import * as nodesRepo from '../../db/repositories/nodes';
import type { NodeFilters } from '../../db/repositories/nodes';
import { collection, collectionBytes } from '../collection';
import { baseUrl } from '../links';
import { MACHINE_STATES } from '../machine';
import { VALID_FAULTS } from '../../common/states';
import * as args from '../schemas/args';
import {
  checkAllowFields, checkSortKey, ListArgsOf, nextArgs, PAGE_ARGS, readQuery, returnFields, validateListArgs, validateLimit,
  validateSortDir,
} from '../schemas/list-query';
import type { ApiContext } from '../state';
import { V } from '../versions';
import { mayRedactNodes } from '../policy/node-redaction';
import { disallowedFields, nodeView, NodeWithTraits } from '../views/node';
import { nodeColumnsFor } from '../views/node-columns';
import { loadNodeExtras, NodeRef } from '../views/node-extras';
import { NodeRow, nodeRefs, nodeRowWriter } from '../views/node-json';

const DEFAULT_LIST_FIELDS = ['instance_uuid', 'maintenance', 'power_state', 'provision_state', 'uuid', 'name'];


const READERS = { uuid: args.uuid, boolean: args.boolean, string: args.string, string_list: args.stringList } as const;

/** The list filters the node fields declare (src/db/node-fields.ts), by query argument. */
const FILTERS: ReadonlyMap<string, NodeListFilter> = new Map(NODE_LIST_FILTERS.map((f) => [f.arg, f]));

/** get_all's arguments that are not a field's filter. */
const OWN_ARGS = { ...PAGE_ARGS, fields: args.stringList, detail: args.boolean, project: args.string } as const;

/** get_all's signature: its arguments in order, as args.validate checks them. */
const SIGNATURE = ['chassis_uuid', 'instance_uuid', 'associated', 'maintenance', 'retired', 'provision_state',
  'marker', 'limit', 'sort_key', 'sort_dir', 'driver', 'fields', 'resource_class', 'fault', 'conductor_group', 'detail',
  'conductor', 'owner', 'description_contains', 'lessee', 'project', 'shard', 'sharded', 'include_children', 'parent_node'];

/** The child-node arguments: get_all checks them, detail takes them unchecked (childArgs). */
const CHILD_ARGS: readonly string[] = ['include_children', 'parent_node'];

type Reader = (name: string, value: unknown) => unknown;

function readerOf(name: string): Reader {
  const filter = FILTERS.get(name);
  if (filter) return READERS[filter.read];
  if (Object.hasOwn(OWN_ARGS, name)) return OWN_ARGS[name as keyof typeof OWN_ARGS];
  throw new Error(`get_all argument ${name} is neither a node field's filter nor its own`);
}

/** Each argument with its validator, in the signature's order; every filter must have its place. */
const READ_ORDER: ReadonlyArray<readonly [string, Reader]> = SIGNATURE.filter((name) => !CHILD_ARGS.includes(name))
  .map((name) => [name, readerOf(name)] as const);
for (const arg of FILTERS.keys()) if (!SIGNATURE.includes(arg)) throw new Error(`node filter ${arg} is not in get_all's signature`);

/** detail()'s signature takes neither fields nor detail. */
const DETAIL_ARGS = SIGNATURE.filter((name) => name !== 'fields' && name !== 'detail');

interface ListArgs extends ListArgsOf<typeof OWN_ARGS> {
  /** The filters given, by query argument. */
  filters: ReadonlyMap<string, unknown>;
  /** Python truthiness of include_children: detail takes it (and parent_node) unchecked, as raw text. */
  includeChildren: boolean;
  childArgsGiven: boolean;
  parentNode: string | null;
}

/** get_all validates include_children and parent_node; detail passes the query text on as it is. */
function childArgs(q: Record<string, string | undefined>, detailPath: boolean):
  Pick<ListArgs, 'includeChildren' | 'childArgsGiven' | 'parentNode'> {
  const childArgsGiven = q.include_children !== undefined || q.parent_node !== undefined;
  if (detailPath) return { includeChildren: Boolean(q.include_children), childArgsGiven, parentNode: q.parent_node ?? null };
  return {
    includeChildren: args.boolean('include_children', q.include_children) === true,
    childArgsGiven,
    parentNode: args.string('parent_node', q.parent_node),
  };
}

/** args.validate over the query, in get_all's parameter order. */
function parseArgs(ctx: ApiContext, detailPath: boolean, chassisUuid: string | null): ListArgs {
  const q = readQuery(ctx, detailPath ? DETAIL_ARGS : SIGNATURE);
  if (chassisUuid !== null && q.chassis_uuid !== undefined) {
    // Python's TypeError (a 500) in Ironic: the path already names the chassis.
    throw new InvalidParameterValue('chassis_uuid cannot be given as a query argument: the path names the chassis');
  }
  const given: Record<string, string | undefined> = { ...q, chassis_uuid: chassisUuid ?? q.chassis_uuid };
  const filters = new Map<string, unknown>();
  for (const [name, read] of READ_ORDER) {
    const value = read(name, given[name]);
    if (value !== null && FILTERS.has(name)) filters.set(name, value);
  }
  // The own arguments passed above; read again for their types.
  return { ...validateListArgs(given, OWN_ARGS), filters, ...childArgs(q, detailPath) };
}

function minimal(min: number): IronicError {
  return new NotAcceptable(`Request not acceptable. The minimal required API version should be 1.${min}`);
}

/** check_allowed_fields: a field newer than the request's version is a 406. */
export function checkAllowedNodeFields(version: number, fields: readonly string[] | null): void {
  if (fields === null) return;
  for (const field of disallowedFields(version)) if (fields.includes(field)) throw new NotAcceptable();
}

/** The values a filter accepts, checked once its microversion is. */
const VALUE_CHECKS: ReadonlyMap<string, (value: string) => void> = new Map([
  ['provision_state', (state: string) => {
    if (!MACHINE_STATES.includes(state)) throw new InvalidParameterValue(`Provision state "${state}" is not valid`);
  }],
  ['fault', (fault: string) => {
    if (!VALID_FAULTS.includes(fault)) {
      throw new InvalidParameterValue(`Unrecognized fault "${fault}" is specified, allowed faults are ` +
        `(${VALID_FAULTS.map((f) => `'${f}'`).join(', ')})`);
    }
  }],
]);

/** The filters with a microversion, in the order Ironic's check_allow_* calls come: the order they were added in. */
const GATED = NODE_LIST_FILTERS.filter((f): f is NodeListFilter & { since: number } => f.since !== undefined)
  .sort((a, b) => a.since - b.since);

/** NodesController.detail checks these after sort_key. */
const CHECKED_LATE_ON_DETAIL: ReadonlySet<string> = new Set(['conductor', 'shard', 'sharded']);

function checkGates(version: number, a: ListArgs, keep: (f: NodeListFilter) => boolean): void {
  for (const f of GATED) {
    const value = a.filters.get(f.arg);
    if (value === undefined || !keep(f)) continue;
    if (version < f.since) throw f.bare406 ? new NotAcceptable() : minimal(f.since);
    VALUE_CHECKS.get(f.arg)?.(value as string);
  }
}

function checkFilterVersions(ctx: ApiContext, a: ListArgs, detailPath: boolean): void {
  const v = ctx.state.version;
  if (!detailPath) {
    checkAllowFields(ctx, a.fields);
    checkAllowedNodeFields(v, a.fields);
    checkAllowedNodeFields(v, [a.sortKey]);
    checkGates(v, a, () => true);
    if (a.childArgsGiven && v < V.PARENT_CHILD_NODES) throw minimal(V.PARENT_CHILD_NODES);
    return;
  }
  checkGates(v, a, (f) => !CHECKED_LATE_ON_DETAIL.has(f.arg));
  checkAllowedNodeFields(v, [a.sortKey]);
  checkGates(v, a, (f) => CHECKED_LATE_ON_DETAIL.has(f.arg));
}

async function chassisIdFor(ctx: ApiContext, chassisUuid: string): Promise<number> {
  const row = await ctx.state.deps.db.knex('chassis').select('id').where({ uuid: chassisUuid }).first() as
    { id: number } | undefined;
  if (!row) throw new ChassisNotFound({ chassis: chassisUuid });
  return Number(row.id);
}

/** The repository's filters: the fields' own, the chassis by id, the project; `conductor` is applied to the page. */
async function buildFilters(ctx: ApiContext, a: ListArgs): Promise<NodeFilters> {
  const f: Record<string, unknown> = {};
  for (const [arg, value] of a.filters) {
    const filter = FILTERS.get(arg);
    if (arg === 'chassis_uuid') f.chassis_id = await chassisIdFor(ctx, value as string);
    else if (filter && !filter.computed) f[filter.key] = value;
  }
  if (a.project !== null) f.project = a.project;
  // At every version a list shows only nodes without a parent, unless children are asked for.
  if (!a.includeChildren) {
    if (a.parentNode !== null) f.parent_node = a.parentNode;
    else f.include_children = false;
  }
  // A caller limited by policy to its project sees the nodes it owns or leases.
  Object.assign(f, listScope(ctx.state.auth));
  return f as NodeFilters;
}

const COMPUTED_FIELDS: ReadonlySet<string> = new Set(API_FULFILLED_FIELDS);

/**
 * Ironic selects each field as a column of its model and fails with a 500 on any other name, the
 * fields it computes (chassis_uuid, allocation_uuid, conductor) included; here both are a 400.
 */
function checkModelFields(fields: string[] | null): void {
  const invalid = [...new Set((fields ?? []).filter((field) => !MODEL_ATTRIBUTES.has(field)))];
  if (invalid.length === 0) return;
  const computed = invalid.filter((field) => COMPUTED_FIELDS.has(field));
  if (computed.length > 0) {
    throw new InvalidParameterValue(`Field(s) "${computed.join(', ')}" cannot be selected with fields in a node list`);
  }
  throw new InvalidParameterValue(`Field(s) "${invalid.join(', ')}" are not valid`);
}

interface NodeListParent {
  /** Set for /v1/chassis/{chassis_uuid}/nodes. */
  chassisUuid?: string;
}

/** The handler behind every node list route; `detailPath` for the /detail variants. */
export async function listNodes(ctx: ApiContext, parent: NodeListParent = {}, detailPath = false): Promise<void> {
  const a = parseArgs(ctx, detailPath, parent.chassisUuid ?? null);
  checkFilterVersions(ctx, a, detailPath);
  const fields = detailPath ? null : returnFields(ctx, a.fields, a.detail, a.rawDetail, DEFAULT_LIST_FIELDS);
  const limit = validateLimit(ctx, a.limit);
  const sortDir = validateSortDir(a.sortDir);
  checkSortKey(a.sortKey, UNSORTABLE_FIELDS);
  if (a.marker !== null) await nodesRepo.ensureExists(ctx.state.deps.db, a.marker);
  const filters = await buildFilters(ctx, a);
  checkModelFields(fields);
  const page = await nodesRepo.listPage(ctx.state.deps.db, filters, {
    limit, marker: a.marker ?? undefined, sortKey: a.sortKey, sortDir,
    withoutRelations: fields !== null && !fields.includes('traits'),
    columns: nodeColumnsFor(fields),
  });
  let rows: NodeRow[] = page.rows;
  let refs = nodeRefs(page.columns, rows);
  const conductor = a.filters.get('conductor');
  if (typeof conductor === 'string') [rows, refs] = await filterByConductor(ctx, rows, refs, conductor);
  const extras = await loadNodeExtras(ctx, refs, fields);
  const opts = { base: baseUrl(ctx), version: ctx.state.version, fields };
  const extra: [string, string][] = [];
  // _get_nodes_collection repeats these in next links, when true.
  for (const arg of ['associated', 'maintenance', 'retired']) if (a.filters.get(arg) === true) extra.push([arg, 'True']);
  const links = {
    // instance_uuid is unique: Ironic never offers a next page for it.
    limit: a.filters.has('instance_uuid') ? 0 : limit,
    resource: detailPath ? 'nodes/detail' : 'nodes',
    nextArgs: nextArgs(a.sortKey, sortDir, fields, a.detail, extra),
  };
  const traitsOf = (ref: NodeRef): readonly string[] | null => (page.traits ? page.traits.get(ref.id) ?? [] : null);
  if (mayRedactNodes(ctx.state.auth)) {
    // The policy step redacts view dicts afterwards, so this caller gets them as objects.
    const items = rows.map((row, i) => nodeView(nodeRecordOf(page.columns, row, traitsOf(refs[i])), opts,
      extras.get(refs[i].id) ?? {}));
    ctx.body = collection(ctx, 'nodes', items as { uuid?: unknown }[], links);
    return;
  }
  const write = nodeRowWriter(opts, page.columns);
  // A full node is about 2.7 KB of JSON; a fields= one a fraction of that.
  const bytesPerItem = fields === null ? 3072 : 128 + 96 * fields.length;
  ctx.body = collectionBytes(ctx, 'nodes', rows.length, () => refs[refs.length - 1].uuid, { ...links, bytesPerItem }, (out) => {
    rows.forEach((row, i) => {
      if (i > 0) out.add(', ');
      out.add(write(row, { extras: extras.get(refs[i].id) ?? {}, traits: traitsOf(refs[i]) }));
    });
  });
  ctx.set('Content-Type', 'application/json');
}

async function filterByConductor(ctx: ApiContext, rows: NodeRow[], refs: NodeRef[], host: string):
  Promise<[NodeRow[], NodeRef[]]> {
  const hosts = await ctx.state.deps.conductor.conductorHostsFor(refs);
  const keep = (_: unknown, i: number): boolean => hosts[i] === host;
  return [rows.filter(keep), refs.filter(keep)];
}

/** A row decoded as nodeView's input (JSON columns left as stored text). */
function nodeRecordOf(columns: readonly string[], row: NodeRow, traits: readonly string[] | null): NodeWithTraits {
  const raw: Record<string, unknown> = {};
  columns.forEach((c, i) => { raw[c] = row[i]; });
  const node = decodeRow<NodeWithTraits>('nodes', raw, { storedJson: true });
  if (traits !== null) node.traits = traits.map((trait) => ({ trait }) as NodeTraitRecord);
  return node;
}
