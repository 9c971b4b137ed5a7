/**
 * Read-only node sub-resources reached through NodesController._lookup: ports, portgroups (1.24),
 * the volume index and its connectors/targets lists (1.32), BIOS settings (1.40, detail/fields 1.74), history (1.78) and
 * inventory (1.81). Each checks the path ident and its version the way _lookup does.
 */
import type Router from '@koa/router';
import { BIOSSettingNotFound, InvalidParameterValue, NotFound, NodeHistoryNotFound, NodeInventoryNotFound } from '../../../common/errors';
import type { BiosSettingRecord, NodeHistoryRecord } from '../../../db/models';
import * as biosRepo from '../../../db/repositories/bios';
import * as historyRepo from '../../../db/repositories/node-history';
import * as inventoryRepo from '../../../db/repositories/inventory';
import { collection } from '../../collection';
import { baseUrl, makeLink } from '../../links';
import { checkPathIdent, getNodeByIdent, routingNotFound } from '../../node-lookup';
import * as args from '../../schemas/args';
import { PAGE_ARGS, readListArgs, validateLimit } from '../../schemas/list-query';
import type { ApiContext, ApiState } from '../../state';
import { V } from '../../versions';
import { isoformat } from '../../views/resource-dict';
import { listPortgroups } from '../portgroups';
import { listPorts } from '../ports';
import { CONNECTOR_KIND, TARGET_KIND } from '../volume';
import { listVolume } from '../volume-resource';
import { maskMessage } from '../../../common/mask';

type Ctx = ApiContext & { params: Record<string, string> };

/** _lookup's checks for a sub-resource: the ident's form, then the sub-resource's version. */
function lookup(ctx: Ctx, minVersion = 1): string {
  const ident = ctx.params.node_ident;
  checkPathIdent(ident);
  if (ctx.state.version < minVersion) throw routingNotFound();
  return ident;
}

function nodeLinks(base: string, path: string) {
  return [makeLink(base, 'self', 'nodes', path), makeLink(base, 'bookmark', 'nodes', path, true)];
}

async function volumeIndex(ctx: Ctx): Promise<void> {
  const ident = lookup(ctx);
  // VolumeController checks its version itself: a fault, not a routing 404.
  if (ctx.state.version < V.VOLUME) throw new NotFound();
  const base = baseUrl(ctx);
  ctx.body = {
    links: nodeLinks(base, `${ident}/volume/`),
    connectors: nodeLinks(base, `${ident}/volume/connectors`),
    targets: nodeLinks(base, `${ident}/volume/targets`),
  };
}

const BIOS_DEFAULT_FIELDS = ['name', 'value'];
const BIOS_REGISTRY_FIELDS = ['name', 'value', 'attribute_type', 'allowable_values', 'lower_bound', 'max_length',
  'min_length', 'read_only', 'reset_required', 'unique', 'upper_bound'];

function biosView(base: string, setting: BiosSettingRecord, nodeRef: string, fields: readonly string[]): Record<string, unknown> {
  const record = setting as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = { created_at: isoformat(setting.created_at), updated_at: isoformat(setting.updated_at) };
  for (const field of fields) {
    const value = record[field];
    out[field] = value === null || value === undefined ? (field === 'allowable_values' ? [] : null) : value;
  }
  out.links = nodeLinks(base, `${nodeRef}/bios/${setting.name}`);
  return out;
}

async function listBios(ctx: Ctx): Promise<void> {
  const ident = lookup(ctx, V.BIOS_INTERFACE);
  const { fields, detail } = readListArgs(ctx, { fields: args.stringList, detail: args.boolean });
  const node = await getNodeByIdent(ctx, ident);
  const allowQuery = ctx.state.version >= V.BIOS_REGISTRY;
  if (detail !== null && !allowQuery) {
    throw new InvalidParameterValue(`Invalid query parameter ?detail=${detail ? 'True' : 'False'} received.`);
  }
  if (fields !== null && !allowQuery) throw new InvalidParameterValue(`Invalid query parameter ?fields=${args.pyStr(fields)} received.`);
  if (fields !== null && detail) throw new InvalidParameterValue('Can not specify ?detail=True and fields in the same request.');
  const shown = detail ? BIOS_REGISTRY_FIELDS : (fields ?? BIOS_DEFAULT_FIELDS);
  const settings = await biosRepo.list(ctx.state.deps.db, node.id);
  const base = baseUrl(ctx);
  ctx.body = { bios: settings.map((s) => biosView(base, s, ident, shown)) };
}

async function showBios(ctx: Ctx): Promise<void> {
  const ident = lookup(ctx, V.BIOS_INTERFACE);
  const name = args.logicalName('setting_name', ctx.params.setting_name) as string;
  const node = await getNodeByIdent(ctx, ident);
  let setting: BiosSettingRecord;
  try {
    setting = await biosRepo.get(ctx.state.deps.db, node.id, name);
  } catch {
    throw new BIOSSettingNotFound({ node: node.uuid, name });
  }
  const fields = ctx.state.version >= V.BIOS_REGISTRY ? BIOS_REGISTRY_FIELDS : BIOS_DEFAULT_FIELDS;
  ctx.body = { [name]: biosView(baseUrl(ctx), setting, node.uuid, fields) };
}

const HISTORY_FIELDS = ['uuid', 'created_at', 'severity', 'event'];
const HISTORY_DETAIL_FIELDS = ['uuid', 'created_at', 'severity', 'event_type', 'event', 'conductor', 'user'];

function historyView(base: string, nodeUuid: string, event: NodeHistoryRecord, detail: boolean): Record<string, unknown> {
  const record = event as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = { uuid: event.uuid, created_at: isoformat(event.created_at) };
  for (const field of detail ? HISTORY_DETAIL_FIELDS : HISTORY_FIELDS) {
    if (field === 'created_at') continue;
    out[field] = record[field] ?? null;
  }
  // Events repeat last_error texts, which may quote a BMC URL or a driver's command line.
  if (typeof out.event === 'string') out.event = maskMessage(out.event);
  if (!detail && typeof out.event === 'string' && [...out.event].length > 255) {
    out.event = `${[...out.event].slice(0, 251).join('')}...`;
  }
  out.links = [makeLink(base, 'self', 'nodes', `${nodeUuid}/history/${event.uuid}`)];
  return out;
}

async function listHistory(ctx: Ctx): Promise<void> {
  const ident = lookup(ctx, V.NODE_HISTORY);
  const { detail: detailArg, marker, limit: limitArg } =
    readListArgs(ctx, { detail: args.boolean, marker: PAGE_ARGS.marker, limit: PAGE_ARGS.limit });
  const detail = detailArg ?? false;
  const node = await getNodeByIdent(ctx, ident);
  if (marker !== null) await historyMarker(ctx, marker);
  const limit = validateLimit(ctx, limitArg);
  const events = await historyRepo.list(ctx.state.deps.db, { node_id: node.id },
    { limit, marker: marker ?? undefined });
  const base = baseUrl(ctx);
  const fields = detail ? HISTORY_DETAIL_FIELDS : HISTORY_FIELDS;
  ctx.body = collection(ctx, 'history', events.map((e) => historyView(base, node.uuid, e, detail)), {
    limit, resource: `nodes/${ident}/history`,
    // Ironic passes the marker object itself into the next link's arguments.
    nextArgs: [['marker', marker ?? 'None'], ['fields', fields.join(',')]],
  });
}

async function historyMarker(ctx: ApiContext, uuid: string): Promise<void> {
  try {
    await historyRepo.get(ctx.state.deps.db, uuid);
  } catch {
    throw new NodeHistoryNotFound({ history: uuid });
  }
}

async function showHistory(ctx: Ctx): Promise<void> {
  const ident = lookup(ctx, V.NODE_HISTORY);
  const eventId = args.uuidOrName('event', ctx.params.event) as string;
  const node = await getNodeByIdent(ctx, ident);
  let event: NodeHistoryRecord;
  try {
    event = await historyRepo.get(ctx.state.deps.db, eventId);
  } catch {
    throw new NodeHistoryNotFound({ history: eventId });
  }
  ctx.body = historyView(baseUrl(ctx), node.uuid, event, true);
}

async function showInventory(ctx: Ctx): Promise<void> {
  const ident = lookup(ctx, V.NODE_INVENTORY);
  const node = await getNodeByIdent(ctx, ident);
  const backend = ctx.state.deps.conf.has('inventory', 'data_backend')
    ? ctx.state.deps.conf.str('inventory', 'data_backend') : 'database';
  if (backend !== 'database') throw new NodeInventoryNotFound({ node: node.uuid });
  try {
    const inv = await inventoryRepo.getByNodeId(ctx.state.deps.db, node.id);
    ctx.body = { inventory: inv.inventory_data, plugin_data: inv.plugin_data };
  } catch {
    throw new NodeInventoryNotFound({ node: node.id });
  }
}

export function addSublistRoutes(router: Router<ApiState>): void {
  router.get('/v1/nodes/:node_ident/ports', (ctx) => listPorts(ctx, { node: lookup(ctx) }));
  router.get('/v1/nodes/:node_ident/ports/detail', (ctx) => listPorts(ctx, { node: lookup(ctx) }, true));
  router.get('/v1/nodes/:node_ident/portgroups', (ctx) => listPortgroups(ctx, lookup(ctx, V.PORTGROUP_SUBRESOURCES)));
  router.get('/v1/nodes/:node_ident/portgroups/detail',
    (ctx) => listPortgroups(ctx, lookup(ctx, V.PORTGROUP_SUBRESOURCES), true));
  router.get('/v1/nodes/:node_ident/volume', volumeIndex);
  router.get('/v1/nodes/:node_ident/volume/connectors', (ctx) => listVolume(CONNECTOR_KIND, ctx, lookup(ctx)));
  router.get('/v1/nodes/:node_ident/volume/targets', (ctx) => listVolume(TARGET_KIND, ctx, lookup(ctx)));
  router.get('/v1/nodes/:node_ident/bios', listBios);
  router.get('/v1/nodes/:node_ident/bios/:setting_name', showBios);
  router.get('/v1/nodes/:node_ident/history', listHistory);
  router.get('/v1/nodes/:node_ident/history/:event', showHistory);
  router.get('/v1/nodes/:node_ident/inventory', showInventory);
}
