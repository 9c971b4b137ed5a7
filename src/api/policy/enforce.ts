/**
 * The API's policy step under auth_strategy = keystone: finds the route's rule (routes.ts), loads
 * the owner/lessee the rule targets and authorizes, with Ironic's 403 (HTTPForbidden) and its
 * 404 concealment of nodes a project-scoped caller may not see.
 */
import type Koa from 'koa';
import type { ApiState } from '../state';
import { V } from '../versions';
import { listProjectFor, mayGetNode, nodeOwnerTarget, type RequestAuth } from './scope';
import type { PolicyTarget } from './check';
import { ruleFor, RouteRule } from './routes';
import { nodePatchPolicies } from './node-patch';
import { redactNodeBodies } from './node-redaction';
import {
  AllocationNotFound, HTTPForbidden, Invalid, IronicError, NodeNotFound, NotAuthorized, NotFound, PortNotFound, PortgroupNotFound,
  VolumeConnectorNotFound, VolumeTargetNotFound,
} from '../../common/errors';
import { allocationOwner, childNodeOwnership, nodeOwnership, NodeOwnership } from '../../db/repositories/ownership';
import type { Database } from '../../db/connection';

type Ctx = Koa.ParameterizedContext<ApiState>;

/** Responses holding node views (node_sanitize applies): a node, node lists, a chassis' node lists. */
const NODE_BODY_PATHS = /^\/v1\/(nodes(\/[^/]+)?|chassis\/[^/]+\/nodes(\/detail)?)$/;

/** Lists whose controllers honour RequestAuth.listProject. */
const PROJECT_FILTERED_LISTS = new Set(['node', 'port', 'portgroup', 'allocation', 'volume', 'runbook']);

export const enforcePolicy: Koa.Middleware<ApiState> = async (ctx, next) => {
  const auth = ctx.state.auth;
  if (!auth) return next();
  const found = ruleFor(ctx.method, ctx.path);
  // Unknown routes fall through to the controllers' 404/405, as pecan routes before any check.
  if (found) await apply(ctx, auth, found.rule, found.ident);
  await next();
  if (ctx.status < 300 && NODE_BODY_PATHS.test(ctx.path)) await redactNodeBodies(ctx.state.deps.db, auth, ctx.body);
};

async function apply(ctx: Ctx, auth: RequestAuth, rule: RouteRule, ident: string | null): Promise<void> {
  const { enforcer, creds } = auth;
  switch (rule.kind) {
    case 'open': return;
    case 'plain': return enforcer.authorize(rule.policy, creds);
    case 'list': return checkList(ctx, auth, rule.object);
    case 'nodeCreate': return checkNodeCreate(ctx, auth);
    case 'childCreate': return checkChildCreate(ctx, auth, rule.policy);
    case 'allocationCreate': return checkAllocationCreate(ctx, auth);
    case 'node':
    case 'nodePatch': {
      const node = ident === null ? null : await nodeOwnership(ctx.state.deps.db, ident);
      const policies = rule.kind === 'node' ? [rule.policy] : nodePatchPolicies(ctx.state.body);
      // A missing node is the controller's own NodeNotFound (or 400 for a bad ident).
      if (node) checkOnNode(auth, policies, node, () => new NodeNotFound({ node: ident }));
      return;
    }
    case 'nodeDelete': {
      const node = ident === null ? null : await nodeOwnership(ctx.state.deps.db, ident);
      if (!node) return;
      const notFound = (): IronicError => new NodeNotFound({ node: ident });
      try {
        checkOnNode(auth, ['baremetal:node:delete'], node, notFound);
      } catch (err) {
        // NodesController.delete: a project admin may still delete a node its project owns.
        if (!(err instanceof HTTPForbidden) || !ctx.state.deps.conf.bool('api', 'project_admin_can_manage_own_nodes')) throw err;
        checkOnNode(auth, ['baremetal:node:delete:self_owned_node'], node, notFound);
      }
      return;
    }
    case 'nodeChildren': return checkNodeChildren(ctx, auth, ident);
    case 'child': {
      if (ident === null) return;
      const child = await childNodeOwnership(ctx.state.deps.db, rule.table, ident);
      if (child.found) checkOnNode(auth, [rule.policy], child.node, () => childNotFound(rule.table, ident), true);
      return;
    }
    case 'allocation': {
      const allocation = ident === null ? null : await allocationOwner(ctx.state.deps.db, ident);
      if (!allocation) return;
      const target = { ...creds, 'allocation.owner': allocation.owner };
      if (!enforcer.allowed('baremetal:allocation:get', creds, target)) throw new AllocationNotFound({ allocation: ident });
      return enforcer.authorize(rule.policy, creds, target);
    }
  }
}

/**
 * check_node_policy_and_retrieve / check_port_policy_and_retrieve: baremetal:node:get decides
 * whether the object exists for the caller, then the action's own rule answers 403.
 */
function checkOnNode(auth: RequestAuth, policies: string[], node: NodeOwnership, notFound: () => IronicError,
  alwaysConceal = false): void {
  const target: PolicyTarget = { ...auth.creds, 'node.owner': node.owner, 'node.lessee': node.lessee };
  if (!auth.enforcer.allowed('baremetal:node:get', auth.creds, target)) {
    if (alwaysConceal || auth.creds.project_id) throw notFound();
    throw new HTTPForbidden({ resource: 'baremetal:node:get' });
  }
  for (const policy of policies) auth.enforcer.authorize(policy, auth.creds, target);
}

/**
 * NodeChildrenController.get_all: a parent the caller may not get is a plain 404 (never a 403), then
 * check_list_policy decides which of its children the caller sees. Below 1.83 the route does not exist.
 */
async function checkNodeChildren(ctx: Ctx, auth: RequestAuth, ident: string | null): Promise<void> {
  if (ctx.state.version < V.PARENT_CHILD_NODES) return;
  const node = ident === null ? null : await nodeOwnership(ctx.state.deps.db, ident);
  if (node) {
    try {
      checkOnNode(auth, [], node, () => new NodeNotFound({ node: ident }));
    } catch (err) {
      if (err instanceof HTTPForbidden) throw new NotFound();
      throw err;
    }
  }
  checkList(ctx, auth, 'node');
}

function childNotFound(table: string, ident: string): IronicError {
  if (table === 'ports') return new PortNotFound({ port: ident });
  if (table === 'portgroups') return new PortgroupNotFound({ portgroup: ident });
  if (table === 'volume_connectors') return new VolumeConnectorNotFound({ connector: ident });
  return new VolumeTargetNotFound({ target: ident });
}

/** check_list_policy: list_all sees everything; otherwise list, restricted to the caller's project. */
function checkList(ctx: Ctx, auth: RequestAuth, object: string): void {
  // Node lists refuse a `project` filter naming another project, allocation lists an `owner` one.
  const param = object === 'node' ? 'project' : object === 'allocation' ? 'owner' : null;
  const value = param === null ? undefined : ctx.query[param];
  const asked = typeof value === 'string' && value ? value : null;
  const project = listProjectFor(auth, object, asked);
  // Lists whose controllers cannot filter by project yet stay closed rather than show everything.
  if (project !== null && !PROJECT_FILTERED_LISTS.has(object)) throw new HTTPForbidden({ resource: `baremetal:${object}:list_all` });
  if (project !== null) auth.listProject = project;
}

/**
 * PortsController.post / PortgroupsController.post: the rule is the child's, the target the node
 * named by node_uuid (or a port's node_ident). A node the caller may not get (baremetal:node:get) counts as missing, and a
 * missing node is checked as unowned; the controller then answers its NodeNotFound.
 */
async function checkChildCreate(ctx: Ctx, auth: RequestAuth, policy: string): Promise<void> {
  const body = ctx.state.body;
  const fields = body !== null && typeof body === 'object' && !Array.isArray(body) ? body as Record<string, unknown> : {};
  // A port may name its node by node_ident (1.94) instead.
  const nodeIdent = fields.node_ident || fields.node_uuid;
  let node = typeof nodeIdent === 'string' && nodeIdent ? await nodeOwnership(ctx.state.deps.db, nodeIdent) : null;
  if (node && !mayGetNode(auth, node)) node = null;
  auth.enforcer.authorize(policy, auth.creds, nodeOwnerTarget(auth, node));
}

/**
 * AllocationsController._authorize_create_allocation and the owner part of post: a caller without
 * baremetal:allocation:create may still create allocations for its own project
 * (create_restricted); with new defaults a project-scoped caller's allocation is owned by its
 * project unless create_restricted lets it name another; without create_restricted, candidate
 * nodes must belong to the caller's project.
 */
function checkAllocationCreate(ctx: Ctx, auth: RequestAuth): void {
  const { enforcer, creds } = auth;
  const body = ctx.state.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return enforcer.authorize('baremetal:allocation:create', creds);
  const requested = (body as Record<string, unknown>).owner;
  const owner = typeof requested === 'string' && requested ? requested : null;
  const project = typeof creds.project_id === 'string' && creds.project_id ? creds.project_id : null;
  const newDefaults = ctx.state.deps.conf.bool('oslo_policy', 'enforce_new_defaults');
  try {
    enforcer.authorize('baremetal:allocation:create', creds);
    if (!newDefaults && !owner) enforcer.authorize('baremetal:allocation:create_pre_rbac', creds);
  } catch (err) {
    if (!(err instanceof HTTPForbidden) || (project && owner && project !== owner)) throw err;
    if (owner && !newDefaults) enforcer.authorize('baremetal:allocation:create_pre_rbac', creds);
    enforcer.authorize('baremetal:allocation:create_restricted', creds);
    auth.allocationOwner = project;
  }
  const restricted = enforcer.allowed('baremetal:allocation:create_restricted', creds);
  if (newDefaults && creds.system_scope !== 'all') {
    if (owner && !restricted && owner !== project) {
      throw new NotAuthorized(`Cannot create allocation with an owner Project ID value ${owner} not matching the ` +
        `requestor Project ID ${project}. Policy baremetal:allocation:create_restricted is required for this capability.`);
    }
    if (!owner) auth.allocationOwner = project;
  }
  if (!restricted && project) auth.candidateProject = project;
}

/**
 * NodesController.post: with [api]project_admin_can_manage_own_nodes, a caller passing
 * baremetal:node:create:self_owned_node creates nodes owned by its project (unless system
 * scoped); anyone else needs baremetal:node:create.
 */
function checkNodeCreate(ctx: Ctx, auth: RequestAuth): void {
  const { enforcer, creds } = auth;
  const ownedNode = ctx.state.deps.conf.bool('api', 'project_admin_can_manage_own_nodes')
    && enforcer.allowed('baremetal:node:create:self_owned_node', creds);
  if (!ownedNode) enforcer.authorize('baremetal:node:create', creds);
  const body = ctx.state.body;
  if (!ownedNode || creds.system_scope === 'all' || body === null || typeof body !== 'object' || Array.isArray(body)) return;
  const project = typeof creds.project_id === 'string' && creds.project_id ? creds.project_id : null;
  const requested = (body as Record<string, unknown>).owner;
  if (requested && requested !== project) {
    throw new Invalid('Cannot create a node as a project scoped admin with an owner other than your own project.');
  }
  (body as Record<string, unknown>).owner = project;
}

/**
 * The policy step of one node action requested outside /v1 (the dashboard's console relay), as
 * check_node_policy_and_retrieve answers it: NodeNotFound for a node the caller may not see,
 * HTTPForbidden when the action's rule refuses. Without a policy context everything passes.
 */
export async function authorizeNodeAction(db: Database, auth: RequestAuth | undefined, ident: string, policy: string): Promise<void> {
  if (!auth) return;
  const node = await nodeOwnership(db, ident);
  if (!node) throw new NodeNotFound({ node: ident });
  checkOnNode(auth, [policy], node, () => new NodeNotFound({ node: ident }));
}
