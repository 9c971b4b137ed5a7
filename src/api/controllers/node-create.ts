/**
 * POST /v1/nodes (NodesController.post of Ironic 21.4.4): schema and field checks with Ironic's
 * messages, version-gated fields refused, uuid/conductor_group/provision_state defaults, chassis
 * resolved, then the conductor creates the node (it fills in the default interfaces).
 */
import { notifyApiChange } from '../../notifications/events';
import { apiNotifyContext } from '../notify-context';
import { randomUUID } from 'node:crypto';
import { ChassisNotFound, ClientSideError, Invalid, NotAcceptable, inBody } from '../../common/errors';
import type { NodeRecord, NodeWithRelations } from '../../db/models';
import { NODE_INSERT_DEFAULTS } from '../../db/node-field-lists';
import { isUuidLike } from '../ident';
import { baseUrl } from '../links';
import { isLogicalNameAt, NODE_RESERVED_WORDS } from '../node-lookup';
import * as args from '../schemas/args';
import { NODE_CREATE_SCHEMA, validateNodeBody } from '../schemas/node';
import type { ApiContext } from '../state';
import { V } from '../versions';
import { disallowedFields, nodeView } from '../views/node';
import { loadNodeExtras } from '../views/node-extras';
import { bodyOrEmpty, conductorTopic } from './node-actions/params';
import { linkedNode } from './node-link';

/** reject_fields_in_newer_versions: a field the version does not know must be absent or empty. */
function rejectNewerFields(node: Record<string, unknown>, version: number): void {
  for (const field of disallowedFields(version)) {
    const empty = field === 'conductor_group' ? '' : null;
    if (field === 'name' && (node.name === null || node.name === undefined)) continue;
    const value = Object.hasOwn(node, field) ? node[field] : empty;
    if (value !== empty) throw new NotAcceptable();
  }
}

/** _check_names_acceptable: names need 1.5, must be valid logical names, not UUIDs, not reserved words. */
export function checkNamesAcceptable(ctx: ApiContext, names: unknown[], message: (name: string) => string): void {
  if (ctx.state.version < V.NODE_NAME) throw new NotAcceptable();
  for (const name of names) {
    const text = args.pyStr(name);
    if (!isLogicalNameAt(name, ctx.state.version) || isUuidLike(name)) throw new ClientSideError(message(text), 400);
    if ((NODE_RESERVED_WORDS as readonly string[]).includes(text)) {
      throw new ClientSideError(`The word "${text}" is reserved and can not be used as a node name. Reserved words are: ` +
        `${NODE_RESERVED_WORDS.join(', ')}.`, 400);
    }
  }
}

/** _replace_chassis_uuid_with_id: a missing chassis is a 400 here. */
export async function chassisIdForBody(ctx: ApiContext, chassisUuid: unknown): Promise<number | null> {
  if (!chassisUuid) return null;
  const row = await ctx.state.deps.db.knex('chassis').select('id').where({ uuid: chassisUuid as string }).first() as
    { id: number } | undefined;
  if (!row) throw inBody(new ChassisNotFound({ chassis: chassisUuid }));
  return Number(row.id);
}


/**
 * Without authentication every caller is Ironic's project-scoped admin with no project: when
 * project admins may own nodes, a requested owner is refused and the owner is always unset.
 */
function applyProjectScope(ctx: ApiContext, node: Record<string, unknown>): void {
  // Under keystone the policy layer (src/api/policy/enforce.ts) applies this with the caller's scope.
  if (ctx.state.auth) return;
  if (!ctx.state.deps.conf.bool('api', 'project_admin_can_manage_own_nodes')) return;
  if (node.owner) {
    throw new Invalid('Cannot create a node as a project scoped admin with an owner other than your own project.');
  }
  node.owner = null;
}

export async function createNode(ctx: ApiContext): Promise<void> {
  const body = bodyOrEmpty(ctx);
  const node = validateNodeBody('node', body, NODE_CREATE_SCHEMA);
  args.requiredBody('node', body);
  rejectNewerFields(node, ctx.state.version);
  if (!node.uuid) node.uuid = randomUUID();
  if (!node.conductor_group) node.conductor_group = '';
  if (node.name !== null && node.name !== undefined) {
    checkNamesAcceptable(ctx, [node.name], (name) => `Cannot create node with invalid name '${name}'`);
  }
  node.provision_state = ctx.state.version < V.ENROLL_STATE ? 'available' : 'enroll';
  if (!node.resource_class) node.resource_class = ctx.state.deps.conf.optStr('DEFAULT', 'default_resource_class');
  applyProjectScope(ctx, node);
  // A null for a column with a default (retired, disable_power_off) is stored as that default, as
  // Ironic's model does; Ironic refuses it for maintenance and console_enabled with a 500.
  for (const [field, value] of Object.entries(NODE_INSERT_DEFAULTS)) if (node[field] === null) node[field] = value;
  const chassisId = await chassisIdForBody(ctx, node.chassis_uuid);
  const chassisUuid = node.chassis_uuid ?? null;
  delete node.chassis_uuid;
  if (node.parent_node) node.parent_node = (await linkedNode(ctx, (node.owner ?? null) as string | null, node.parent_node, 'parent_node')).uuid;
  const values = { ...node, chassis_id: chassisId } as Partial<NodeRecord>;
  await conductorTopic(ctx, { uuid: String(values.uuid), driver: values.driver ?? null, conductor_group: values.conductor_group ?? '' }, true);
  const created = await notifyApiChange(apiNotifyContext(ctx), 'node', 'create', values,
    () => ctx.state.deps.conductor.createNode(values), { chassis_uuid: chassisUuid });
  // The conductor returns the stored row; a node just created has no traits or tags yet.
  const fresh: NodeWithRelations = { ...created, traits: [], tags: [] };
  const extras = await loadNodeExtras(ctx, [fresh], null);
  ctx.status = 201;
  ctx.set('Location', `${baseUrl(ctx)}/v1/nodes/${fresh.uuid}`);
  ctx.body = nodeView(fresh, { base: baseUrl(ctx), version: ctx.state.version, fields: null }, extras.get(fresh.id) ?? {});
}
