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
import { API_FULFILLED_FIELDS, MODEL_ATTRIBUTES, UNSORTABLE_FIELDS } from '../../db/node-field-lists';
import * as nodesRepo from '../../db/repositories/nodes';
import type { NodeFilters } from '../../db/repositories/nodes';
import { collection, collectionBytes } from '../collection';
import { baseUrl } from '../links';
import { MACHINE_STATES } from '../machine';
import * as args from '../schemas/args';
import { checkAllowFields, nextArgs, readQuery, returnFields, validateLimit, validateSortDir } from '../schemas/list-query';
import type { ApiContext } from '../state';
import { V } from '../versions';
import { mayRedactNodes } from '../policy/node-redaction';
import { disallowedFields, nodeView, NodeWithTraits } from '../views/node';
import { nodeColumnsFor } from '../views/node-columns';
import { loadNodeExtras, NodeRef } from '../views/node-extras';
import { NodeRow, nodeRefs, nodeRowWriter } from '../views/node-json';

const DEFAULT_LIST_FIELDS = ['instance_uuid', 'maintenance', 'power_state', 'provision_state', 'uuid', 'name'];

const VALID_FAULTS = ['power failure', 'clean failure', 'rescue abort failure'];

const FILTER_ARGS = ['chassis_uuid', 'instance_uuid', 'associated', 'maintenance', 'retired', 'provision_state',
  'marker', 'limit', 'sort_key', 'sort_dir', 'driver'];
const LIST_ARGS = [...FILTER_ARGS, 'fields', 'resource_class', 'fault', 'conductor_group', 'detail', 'conductor', 'owner',
  'description_contains', 'lessee', 'project', 'shard', 'sharded', 'include_children', 'parent_node'];
const DETAIL_ARGS = [...FILTER_ARGS, 'resource_class', 'fault', 'conductor_group', 'conductor', 'owner',
  'description_contains', 'lessee', 'project', 'shard', 'sharded', 'include_children', 'parent_node'];

interface ListArgs {
  chassisUuid: string | null; instanceUuid: string | null; associated: boolean | null; maintenance: boolean | null;
  retired: boolean | null; provisionState: string | null; marker: string | null; limit: number | null;
  sortKey: string; sortDir: string; driver: string | null; fields: string[] | null; resourceClass: string | null;
  fault: string | null; conductorGroup: string | null; detail: boolean | null; rawDetail: string | undefined;
  conductor: string | null; owner: string | null; descriptionContains: string | null; lessee: string | null;
  project: string | null; shard: string[] | null; sharded: boolean | null;
  /** Python truthiness of include_children: detail takes it (and parent_node) unchecked, as raw text. */
  includeChildren: boolean; childArgsGiven: boolean; parentNode: string | null;
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
  const q = readQuery(ctx, detailPath ? DETAIL_ARGS : LIST_ARGS);
  if (chassisUuid !== null && q.chassis_uuid !== undefined) {
    // Python's TypeError (a 500) in Ironic: the path already names the chassis.
    throw new InvalidParameterValue('chassis_uuid cannot be given as a query argument: the path names the chassis');
  }
  return {
    chassisUuid: args.uuid('chassis_uuid', chassisUuid ?? q.chassis_uuid),
    instanceUuid: args.uuid('instance_uuid', q.instance_uuid),
    associated: args.boolean('associated', q.associated),
    maintenance: args.boolean('maintenance', q.maintenance),
    retired: args.boolean('retired', q.retired),
    provisionState: args.string('provision_state', q.provision_state),
    marker: args.uuid('marker', q.marker),
    limit: args.integer('limit', q.limit),
    sortKey: args.string('sort_key', q.sort_key) ?? 'id',
    sortDir: args.string('sort_dir', q.sort_dir) ?? 'asc',
    driver: args.string('driver', q.driver),
    fields: args.stringList('fields', q.fields),
    resourceClass: args.string('resource_class', q.resource_class),
    fault: args.string('fault', q.fault),
    conductorGroup: args.string('conductor_group', q.conductor_group),
    detail: args.boolean('detail', q.detail),
    rawDetail: q.detail,
    conductor: args.string('conductor', q.conductor),
    owner: args.string('owner', q.owner),
    descriptionContains: args.string('description_contains', q.description_contains),
    lessee: args.string('lessee', q.lessee),
    project: args.string('project', q.project),
    shard: args.stringList('shard', q.shard),
    sharded: args.boolean('sharded', q.sharded),
    ...childArgs(q, detailPath),
  };
}

function minimal(min: number): IronicError {
  return new NotAcceptable(`Request not acceptable. The minimal required API version should be 1.${min}`);
}

/** check_allowed_fields: a field newer than the request's version is a 406. */
export function checkAllowedNodeFields(version: number, fields: readonly string[] | null): void {
  if (fields === null) return;
  for (const field of disallowedFields(version)) if (fields.includes(field)) throw new NotAcceptable();
}

function checkFilterVersions(ctx: ApiContext, a: ListArgs, detailPath: boolean): void {
  const v = ctx.state.version;
  if (!detailPath) {
    checkAllowFields(ctx, a.fields);
    checkAllowedNodeFields(v, a.fields);
    checkAllowedNodeFields(v, [a.sortKey]);
  }
  if (a.provisionState !== null) {
    if (v < V.PROVISION_STATE_FILTER) throw new NotAcceptable();
    if (!MACHINE_STATES.includes(a.provisionState)) {
      throw new InvalidParameterValue(`Provision state "${a.provisionState}" is not valid`);
    }
  }
  if (a.driver !== null && v < V.DRIVER_FILTER) throw minimal(V.DRIVER_FILTER);
  if (a.resourceClass !== null && v < V.RESOURCE_CLASS) throw minimal(V.RESOURCE_CLASS);
  if (a.fault !== null) {
    if (v < V.FAULT) throw minimal(V.FAULT);
    if (!VALID_FAULTS.includes(a.fault)) {
      throw new InvalidParameterValue(`Unrecognized fault "${a.fault}" is specified, allowed faults are ` +
        `('power failure', 'clean failure', 'rescue abort failure')`);
    }
  }
  if (a.conductorGroup !== null && v < V.CONDUCTOR_GROUP) throw minimal(V.CONDUCTOR_GROUP);
  if (detailPath) {
    if (a.owner !== null && v < V.OWNER) throw minimal(V.OWNER);
    if (a.lessee !== null && v < V.LESSEE) throw minimal(V.LESSEE);
    checkAllowedNodeFields(v, [a.sortKey]);
  }
  if (a.conductor !== null && v < V.CONDUCTORS) throw minimal(V.CONDUCTORS);
  if (!detailPath) {
    if (a.owner !== null && v < V.OWNER) throw minimal(V.OWNER);
    if (a.lessee !== null && v < V.LESSEE) throw minimal(V.LESSEE);
  }
  if (a.shard !== null && v < V.SHARDS) throw minimal(V.SHARDS);
  if (a.sharded !== null && v < V.SHARDS) throw minimal(V.SHARDS);
  if (!detailPath && a.childArgsGiven && v < V.PARENT_CHILD_NODES) throw minimal(V.PARENT_CHILD_NODES);
}

async function chassisIdFor(ctx: ApiContext, chassisUuid: string): Promise<number> {
  const row = await ctx.state.deps.db.knex('chassis').select('id').where({ uuid: chassisUuid }).first() as
    { id: number } | undefined;
  if (!row) throw new ChassisNotFound({ chassis: chassisUuid });
  return Number(row.id);
}

async function buildFilters(ctx: ApiContext, a: ListArgs): Promise<NodeFilters> {
  const f: NodeFilters = {};
  if (a.maintenance !== null) f.maintenance = a.maintenance;
  if (a.chassisUuid !== null) f.chassis_id = await chassisIdFor(ctx, a.chassisUuid);
  if (a.associated !== null) f.associated = a.associated;
  if (a.provisionState !== null) f.provision_state = a.provisionState;
  if (a.driver !== null) f.driver = a.driver;
  if (a.resourceClass !== null) f.resource_class = a.resourceClass;
  if (a.fault !== null) f.fault = a.fault;
  if (a.conductorGroup !== null) f.conductor_group = a.conductorGroup;
  if (a.owner !== null) f.owner = a.owner;
  if (a.lessee !== null) f.lessee = a.lessee;
  if (a.shard !== null) f.shard_in = a.shard;
  if (a.project !== null) f.project = a.project;
  if (a.descriptionContains !== null) f.description_contains = a.descriptionContains;
  if (a.retired !== null) f.retired = a.retired;
  if (a.instanceUuid !== null) f.instance_uuid = a.instanceUuid;
  if (a.sharded !== null) f.sharded = a.sharded;
  // At every version a list shows only nodes without a parent, unless children are asked for.
  if (!a.includeChildren) {
    if (a.parentNode !== null) f.parent_node = a.parentNode;
    else f.include_children = false;
  }
  // A caller limited by policy to its project sees the nodes it owns or leases.
  Object.assign(f, listScope(ctx.state.auth));
  return f;
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
  if (UNSORTABLE_FIELDS.includes(a.sortKey)) {
    throw new InvalidParameterValue(`The sort_key value ${a.sortKey} is an invalid field for sorting`);
  }
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
  if (a.conductor !== null) [rows, refs] = await filterByConductor(ctx, rows, refs, a.conductor);
  const extras = await loadNodeExtras(ctx, refs, fields);
  const opts = { base: baseUrl(ctx), version: ctx.state.version, fields };
  const extra: [string, string][] = [];
  if (a.associated) extra.push(['associated', 'True']);
  if (a.maintenance) extra.push(['maintenance', 'True']);
  if (a.retired) extra.push(['retired', 'True']);
  const links = {
    // instance_uuid is unique: Ironic never offers a next page for it.
    limit: a.instanceUuid ? 0 : limit,
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
