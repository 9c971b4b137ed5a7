/**
 * The ramdisk endpoints (ramdisk.py, 1.22+): GET /v1/lookup finds the node an agent runs on (by MAC
 * addresses or node UUID) and hands it its configuration; POST /v1/heartbeat/{node} relays the agent's
 * heartbeat to the conductor.
 */
import Router from '@koa/router';
import {
  HTTPForbidden, IncompleteLookup, Invalid, InvalidParameterValue, NoValidHost, NotFound, withCode,
} from '../../common/errors';
import { FASTTRACK_LOOKUP_ALLOWED_STATES, LOOKUP_ALLOWED_STATES } from '../../common/states';
import type { NodeRecord } from '../../db/models';
import { getNodeByIdent } from '../node-lookup';
import { baseUrl } from '../links';
import * as args from '../schemas/args';
import { readQuery } from '../schemas/list-query';
import type { ApiContext, ApiState } from '../state';
import { V } from '../versions';
import { nodeView } from '../views/node';
import { maskDriverInternalInfo } from '../views/node-masking';

const LOOKUP_FIELDS = ['uuid', 'properties', 'instance_info', 'driver_internal_info'];
const AGENT_VALID_STATES = ['start', 'end', 'error'];

function requireRamdiskEndpoints(ctx: ApiContext): void {
  if (!ctx.state.deps.conf.bool('api', 'enable_ramdisk_endpoints')) throw new HTTPForbidden({ resource: ctx.path });
  if (ctx.state.version < V.LOOKUP_HEARTBEAT) throw new NotFound();
}

/** The agent configuration returned with a lookup (ramdisk.py config()). */
function agentConfig(ctx: ApiContext, token: unknown): Record<string, unknown> {
  const conf = ctx.state.deps.conf;
  return {
    metrics: {
      backend: conf.str('metrics', 'agent_backend'),
      prepend_host: conf.bool('metrics', 'agent_prepend_host'),
      prepend_uuid: conf.bool('metrics', 'agent_prepend_uuid'),
      prepend_host_reverse: conf.bool('metrics', 'agent_prepend_host_reverse'),
      global_prefix: conf.optStr('metrics', 'agent_global_prefix'),
    },
    metrics_statsd: {
      statsd_host: conf.str('metrics_statsd', 'agent_statsd_host'),
      statsd_port: conf.int('metrics_statsd', 'agent_statsd_port'),
    },
    heartbeat_timeout: conf.int('api', 'ramdisk_heartbeat_timeout'),
    agent_token: token ?? null,
    agent_token_required: true,
    disable_deep_image_inspection: conf.bool('conductor', 'disable_deep_image_inspection'),
    permitted_image_formats: conf.list('conductor', 'permitted_image_formats'),
    enable_bios_bootloader_install: conf.bool('agent', 'enable_bios_bootloader_install'),
  };
}

function fastTrackEnabled(ctx: ApiContext, node: NodeRecord): boolean {
  const own = (node.driver_info ?? {}).fast_track;
  if (own === undefined || own === null) return ctx.state.deps.conf.bool('deploy', 'fast_track');
  return args.boolean('fast_track', own) ?? false;
}

/** The one node whose ports carry any of these MACs (Node.get_by_port_addresses). */
async function nodeByAddresses(ctx: ApiContext, macs: string[]): Promise<NodeRecord> {
  const rows = await ctx.state.deps.db.knex('nodes').distinct('nodes.uuid').join('ports', 'ports.node_id', 'nodes.id')
    .whereIn('ports.address', macs) as Array<{ uuid: string }>;
  if (rows.length !== 1) throw new NotFound();
  return getNodeByIdent(ctx, rows[0].uuid);
}

async function lookup(ctx: ApiContext): Promise<void> {
  const q = readQuery(ctx, ['addresses', 'node_uuid']);
  const addresses = args.stringList('addresses', q.addresses) ?? [];
  const nodeUuid = args.uuid('node_uuid', q.node_uuid);
  requireRamdiskEndpoints(ctx);
  const macs = addresses.filter((a) => args.isValidMac(a)).map((a) => a.toLowerCase());
  if (macs.length === 0 && !nodeUuid) throw new IncompleteLookup();
  let node: NodeRecord;
  try {
    node = nodeUuid ? await getNodeByIdent(ctx, nodeUuid) : await nodeByAddresses(ctx, macs);
  } catch (err) {
    if (err instanceof NotFound) throw new NotFound();
    throw err;
  }
  const allowed = fastTrackEnabled(ctx, node) ? FASTTRACK_LOOKUP_ALLOWED_STATES : LOOKUP_ALLOWED_STATES;
  if (ctx.state.deps.conf.bool('api', 'restrict_lookup') && !allowed.includes(node.provision_state ?? '')) throw new NotFound();
  let token: unknown;
  if (ctx.state.version >= V.AGENT_TOKEN) {
    node = await withBadRequestOnNoHost(() => ctx.state.deps.conductor.getNodeWithToken(node.uuid));
    token = (node.driver_internal_info ?? {}).agent_secret_token;
  } else {
    // Only the conductor hands a token out, once: an older version's lookup must not read the stored
    // one back (Python Ironic does), so it sees it masked like any other reader.
    token = maskDriverInternalInfo(node.driver_internal_info ?? {}).agent_secret_token;
  }
  ctx.body = lookupResponse(ctx, node, token);
}

/** ramdisk.py convert_with_links: the node's lookup fields and the agent configuration. */
export function lookupResponse(ctx: ApiContext, node: NodeRecord, token: unknown): Record<string, unknown> {
  return {
    node: nodeView(node, { base: baseUrl(ctx), version: ctx.state.version, fields: LOOKUP_FIELDS }, {}),
    config: agentConfig(ctx, token),
  };
}

export async function withBadRequestOnNoHost<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof NoValidHost) throw withCode(err, 400);
    throw err;
  }
}

const HEARTBEAT_ARGS = ['callback_url', 'agent_version', 'agent_token', 'agent_verify_ca', 'agent_status',
  'agent_status_message'];

/** Heartbeat arguments come from the JSON body (and query), as pecan passes both as keyword arguments. */
function heartbeatArgs(ctx: ApiContext): Record<string, unknown> {
  const q = readQuery(ctx, HEARTBEAT_ARGS);
  const body = ctx.state.body;
  const fromBody = body !== null && typeof body === 'object' && !Array.isArray(body) ? body as Record<string, unknown> : {};
  const all: Record<string, unknown> = { ...q, ...fromBody };
  const unexpected = Object.keys(all).filter((k) => !HEARTBEAT_ARGS.includes(k));
  if (unexpected.length) throw new InvalidParameterValue(`Unexpected arguments: ${unexpected.join(', ')}`);
  return all;
}

async function heartbeat(ctx: ApiContext): Promise<void> {
  const raw = heartbeatArgs(ctx);
  const nodeIdent = args.uuidOrName('node_ident', ctx.params.node_ident)!;
  if (!('callback_url' in raw)) throw new InvalidParameterValue('Missing mandatory parameter: callback_url');
  const callbackUrl = args.string('callback_url', raw.callback_url);
  const agentVersion = args.string('agent_version', raw.agent_version);
  const agentToken = args.string('agent_token', raw.agent_token);
  const verifyCa = args.string('agent_verify_ca', raw.agent_verify_ca);
  const status = args.string('agent_status', raw.agent_status);
  const statusMessage = args.string('agent_status_message', raw.agent_status_message);
  requireRamdiskEndpoints(ctx);
  const v = ctx.state.version;
  if (agentVersion && v < V.AGENT_VERSION_HEARTBEAT) throw new InvalidParameterValue('Field "agent_version" not recognised');
  if ((status || statusMessage) && v < V.AGENT_STATUS) {
    throw new InvalidParameterValue('Fields "agent_status" and "agent_status_message" not recognised.');
  }
  if (verifyCa !== null && v < V.AGENT_VERIFY_CA) {
    throw new InvalidParameterValue('Field "agent_verify_ca" not recognised in this version');
  }
  const node = await getNodeByIdent(ctx, nodeIdent);
  const agentUrl = (node.driver_internal_info ?? {}).agent_url;
  if (agentUrl !== undefined && agentUrl !== null && agentUrl !== callbackUrl) {
    throw new Invalid('Detected change in ramdisk provided "callback_url"');
  }
  if (agentToken === null) throw new InvalidParameterValue('Agent token is required for heartbeat processing.');
  if (status !== null && !AGENT_VALID_STATES.includes(status)) {
    throw new InvalidParameterValue(`Agent status is invalid. Valid states are ${AGENT_VALID_STATES.join(',')}.`);
  }
  const extra: Record<string, unknown> = {};
  if (verifyCa !== null) extra.agent_verify_ca = verifyCa;
  if (status !== null) extra.agent_status = status;
  if (statusMessage !== null) extra.agent_status_message = statusMessage;
  await withBadRequestOnNoHost(() =>
    ctx.state.deps.conductor.heartbeat(node.uuid, callbackUrl ?? '', agentVersion, agentToken, extra));
  // 202 with an empty body and no Content-Type, as pecan answers.
  ctx.status = 202;
  ctx.body = Buffer.alloc(0);
  ctx.remove('Content-Type');
}

export function ramdiskRouter(): Router<ApiState> {
  const router = new Router<ApiState>();
  router.get('/v1/lookup', lookup);
  router.post('/v1/heartbeat/:node_ident', heartbeat);
  return router;
}
