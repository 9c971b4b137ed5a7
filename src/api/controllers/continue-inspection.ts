/**
 * POST /v1/continue_inspection (ramdisk.py ContinueInspectionController, 1.84+, and 1.1 for
 * ironic-inspector's ramdisks): the ramdisk posts its inventory; the node is found by its MACs,
 * BMC addresses or the given UUID (inspect_utils.lookup_node), or enrolled when
 * [auto_discovery]enabled, and the conductor processes the data. Every lookup failure is the same
 * bare 404, so the caller learns nothing about the nodes.
 */
import { randomUUID } from 'node:crypto';
import { notifyApiChange } from '../../notifications/events';
import { apiNotifyContext } from '../notify-context';
import Router from '@koa/router';
import { Invalid, IronicError, NotFound } from '../../common/errors';
import { log } from '../../common/log';
import { isNotFound } from '../../db/errors';
import type { NodeRecord } from '../../db/models';
import { inspectWaitNodesByBmc, nodeUuidsByPortAddresses } from '../../db/repositories/inspection-lookup';
import * as nodesRepo from '../../db/repositories/nodes';
import * as args from '../schemas/args';
import { INSPECTION_DATA_SCHEMA } from '../schemas/inspection-data';
import { readQuery } from '../schemas/list-query';
import type { ApiContext, ApiState } from '../state';
import { V } from '../versions';
import { lookupResponse, withBadRequestOnNoHost } from './ramdisk';

const AUTO_DISCOVERED_FLAG = 'auto_discovered';

const DATA_VALIDATOR = args.schema(INSPECTION_DATA_SCHEMA);

/** A lookup that found no node: auto-discovery may enrol one. */
class AutoEnrollPossible extends Error {}

async function nodeByUuid(ctx: ApiContext, uuid: string): Promise<NodeRecord> {
  try {
    return await nodesRepo.get(ctx.state.deps.db, uuid);
  } catch (err) {
    if (isNotFound(err, 'Node')) throw new NotFound();
    throw err;
  }
}

/** _lookup_by_macs: the one node owning these MACs, which must be the known one if any. */
async function lookupByMacs(ctx: ApiContext, macs: string[], known: NodeRecord | null): Promise<NodeRecord | null> {
  const uuids = await nodeUuidsByPortAddresses(ctx.state.deps.db, macs);
  if (uuids.length > 1) {
    log.error(`Conflict on inspection lookup: multiple nodes match MAC addresses ${macs.join(', ')}`);
    throw new NotFound();
  }
  if (uuids.length === 0) return known;
  if (known && known.uuid !== uuids[0]) {
    log.error(`Conflict on inspection lookup: node ${known.uuid} does not match MAC addresses (${macs.join(', ')}), ` +
      `which belong to node ${uuids[0]}. This may be a sign of incorrectly created ports.`);
    throw new NotFound();
  }
  return nodeByUuid(ctx, uuids[0]);
}

/** _lookup_by_bmc: nodes in `inspect wait` whose cached BMC addresses match. */
async function lookupByBmc(ctx: ApiContext, bmc: string[], known: NodeRecord | null): Promise<NodeRecord | null> {
  const byBmc = new Set(await inspectWaitNodesByBmc(ctx.state.deps.db, bmc));
  if (known && byBmc.size && !byBmc.has(known.uuid)) {
    log.error(`Conflict on inspection lookup: nodes ${[...byBmc].join(', ')} and ${known.uuid} both satisfy MAC addresses ` +
      `and BMC address(s) (${bmc.join(', ')}). The cause may be ports attached to a wrong node.`);
    throw new NotFound();
  }
  if (!known && byBmc.size) {
    if (byBmc.size > 1) throw new NotFound();
    return nodeByUuid(ctx, [...byBmc][0]);
  }
  return known;
}

async function lookupNode(ctx: ApiContext, macs: string[], bmc: string[], nodeUuid: string | null): Promise<NodeRecord> {
  let node = nodeUuid ? await nodeByUuid(ctx, nodeUuid) : null;
  if (macs.length) node = await lookupByMacs(ctx, macs, node);
  if (node && node.provision_state !== 'inspect wait') {
    log.error(`Node ${node.uuid} was found during inspection lookup with MAC addresses ${macs.join(', ')}, ` +
      `but it is in provision state ${node.provision_state ?? 'None'}`);
    throw new NotFound();
  }
  if (bmc.length) node = await lookupByBmc(ctx, bmc, node);
  if (!node) {
    log.error(`No nodes satisfy MAC addresses (${macs.join(', ')}) and BMC address(s) (${bmc.join(', ')}) during inspection lookup`);
    throw new AutoEnrollPossible();
  }
  return node;
}

/** _auto_enroll: a new node with [auto_discovery]driver; no detail of a failure reaches the caller. */
async function autoEnroll(ctx: ApiContext, macs: string[], bmc: string[]): Promise<NodeRecord> {
  const conf = ctx.state.deps.conf;
  const values = {
    // The uuid is chosen here so the create notifications can name the node (UUIDField is not nullable).
    uuid: randomUUID(), conductor_group: '', driver: conf.optStr('auto_discovery', 'driver'), provision_state: 'enroll',
    resource_class: conf.optStr('DEFAULT', 'default_resource_class'),
  } as Partial<NodeRecord>;
  try {
    const node = await notifyApiChange(apiNotifyContext(ctx), 'node', 'create', values, () => ctx.state.deps.conductor.createNode(values));
    log.info(`Enrolling the newly discovered node ${node.uuid} with driver ${String(values.driver)}, MAC addresses ` +
      `[${macs.join(', ')}] and BMC address(es) [${bmc.join(', ')}]`);
    return node;
  } catch (err) {
    log.error(`Failed to enroll node with driver ${String(values.driver)}: ${err instanceof Error ? err.message : String(err)}`);
    throw new IronicError();
  }
}

async function continueInspection(ctx: ApiContext): Promise<void> {
  const q = readQuery(ctx, ['node_uuid']);
  const data = DATA_VALIDATOR('data', ctx.state.body === undefined ? {} : ctx.state.body) as Record<string, unknown>;
  const nodeUuid = args.uuid('node_uuid', q.node_uuid);
  const v = ctx.state.version;
  if ((v < V.CONTINUE_INSPECTION && v !== 1) || (nodeUuid && v < V.CONTINUE_INSPECTION)) {
    throw new NotFound(`API version 1.${V.CONTINUE_INSPECTION} or newer is required`);
  }
  const { inventory: rawInventory, ...pluginData } = data;
  const inventory = rawInventory as Record<string, unknown>;
  const macs = (inventory.interfaces as { mac_address: string }[]).map((i) => i.mac_address)
    .filter((m) => args.isValidMac(m)).map((m) => m.toLowerCase());
  const bmc = [inventory.bmc_address, inventory.bmc_v6address].filter((a): a is string => typeof a === 'string' && a !== '');
  if (!macs.length && !bmc.length && !nodeUuid) throw new Invalid('No lookup information provided');
  const conductor = ctx.state.deps.conductor;
  let node: NodeRecord;
  try {
    node = await lookupNode(ctx, macs, bmc, nodeUuid);
    await withBadRequestOnNoHost(() => conductor.topicFor(node));
  } catch (err) {
    if (!(err instanceof AutoEnrollPossible)) throw err;
    if (!ctx.state.deps.conf.bool('auto_discovery', 'enabled')) throw new NotFound();
    node = await autoEnroll(ctx, macs, bmc);
    pluginData[AUTO_DISCOVERED_FLAG] = true;
  }
  if (v >= V.CONTINUE_INSPECTION) node = await conductor.getNodeWithToken(node.uuid);
  await conductor.continueInspection(node.uuid, inventory, pluginData);
  ctx.status = 202;
  ctx.body = v >= V.CONTINUE_INSPECTION
    ? lookupResponse(ctx, node, (node.driver_internal_info ?? {}).agent_secret_token)
    : { uuid: node.uuid };
}

export function continueInspectionRouter(): Router<ApiState> {
  const router = new Router<ApiState>();
  router.post('/v1/continue_inspection', continueInspection);
  return router;
}
