/**
 * /v1/nodes/{ident}/states (NodeStatesController of Ironic 21.4.4) except provision: the states
 * summary, power, RAID target, boot mode, secure boot and the console.
 */
import type Router from '@koa/router';
import { Conflict, InvalidParameterValue, InvalidStateRequested, NodeConsoleNotEnabled, NotAcceptable, NotFound, PowerStateFailure,
  UnsupportedDriverExtension, withCode, ClientSideError } from '../../../common/errors';
import { UNSTABLE_STATES } from '../../machine';
import { getNodeByIdent } from '../../node-lookup';
import * as args from '../../schemas/args';
import type { ApiContext, ApiState } from '../../state';
import { V } from '../../versions';
import { renameStatesForVersion } from '../../views/node';
import { maskNodeField } from '../../views/node-masking';
import { isoformat } from '../../views/resource-dict';
import { accepted, bodyOrEmpty, conductorTopic, nodeIdentArg, nodeLocation, readArgs, typesArg } from './params';

type Ctx = ApiContext & { params: Record<string, string> };

const POWER_TARGETS = ['power on', 'power off', 'rebooting', 'soft rebooting', 'soft power off'];
const BOOT_MODES = ['bios', 'uefi'];
const TRANSITIONING = 'Node is in %(state)s state. Since node is transitioning, the boot mode will not be set as this ' +
  'may interfere with ongoing changes and result in erroneous modification. Try again later.';

/** node_states_convert. */
async function getStates(ctx: Ctx): Promise<void> {
  readArgs(ctx, [], () => nodeIdentArg(ctx.params.node_ident));
  const node = await getNodeByIdent(ctx, ctx.params.node_ident);
  const v = ctx.state.version;
  const out: Record<string, unknown> = {
    console_enabled: node.console_enabled, last_error: maskNodeField('last_error', node.last_error), power_state: node.power_state,
    provision_state: node.provision_state, target_power_state: node.target_power_state,
    target_provision_state: node.target_provision_state, provision_updated_at: isoformat(node.provision_updated_at),
  };
  if (v >= V.RAID_CONFIG) // Ironic's JSON columns store None as {}.
    Object.assign(out, {
      raid_config: maskNodeField('raid_config', node.raid_config ?? {}),
      target_raid_config: maskNodeField('target_raid_config', node.target_raid_config ?? {}),
    });
  if (v >= V.BOOT_MODE) Object.assign(out, { boot_mode: node.boot_mode, secure_boot: node.secure_boot });
  renameStatesForVersion(out, v);
  ctx.body = out;
}

async function setPower(ctx: Ctx): Promise<void> {
  const ident = ctx.params.node_ident;
  const a = readArgs(ctx, [
    { name: 'target', validate: args.string, required: true },
    { name: 'timeout', validate: args.integer },
  ], () => nodeIdentArg(ident));
  const target = a.target as string | null;
  const timeout = (a.timeout ?? null) as number | null;
  const node = await getNodeByIdent(ctx, ident);
  await conductorTopic(ctx, node);
  const soft = target === 'soft rebooting' || target === 'soft power off';
  if ((soft || timeout) && ctx.state.version < V.SOFT_POWER_OFF) throw new NotAcceptable();
  if (timeout !== null && timeout < 1) throw new ClientSideError('timeout has to be positive integer', 400);
  if (target === null || !POWER_TARGETS.includes(target)) {
    throw new InvalidStateRequested({ action: target, node: ident, state: node.power_state });
  }
  if (node.provision_state === 'clean wait' || node.provision_state === 'cleaning') {
    throw new InvalidStateRequested({ action: target, node: ident, state: node.provision_state });
  }
  if ((target === 'power off' || target === 'soft power off') && node.disable_power_off) {
    throw new PowerStateFailure({ pstate: target });
  }
  await ctx.state.deps.conductor.changeNodePowerState(node.uuid, target, timeout ?? undefined);
  accepted(ctx);
  nodeLocation(ctx, ident, 'states');
}

async function setRaid(ctx: Ctx): Promise<void> {
  const ident = ctx.params.node_ident;
  nodeIdentArg(ident);
  const config = typesArg(['dict'])('target_raid_config', bodyOrEmpty(ctx)) as Record<string, unknown>;
  const node = await getNodeByIdent(ctx, ident);
  if (ctx.state.version < V.RAID_CONFIG) throw new NotAcceptable();
  await conductorTopic(ctx, node);
  try {
    await ctx.state.deps.conductor.setTargetRaidConfig(node.uuid, config);
  } catch (err) {
    if (err instanceof UnsupportedDriverExtension) throw withCode(err, 404);
    throw err;
  }
  ctx.status = 204;
}

function requireChangeBootMode(ctx: ApiContext): void {
  if (ctx.state.version < V.CHANGE_BOOT_MODE) {
    throw new NotFound(`This endpoint is supported starting with the API version 1.${V.CHANGE_BOOT_MODE}`);
  }
}

async function setBootMode(ctx: Ctx): Promise<void> {
  const ident = ctx.params.node_ident;
  const a = readArgs(ctx, [{ name: 'target', validate: args.string, required: true }], () => nodeIdentArg(ident));
  const target = a.target as string | null;
  const node = await getNodeByIdent(ctx, ident);
  await conductorTopic(ctx, node);
  requireChangeBootMode(ctx);
  if (target === null || !BOOT_MODES.includes(target)) {
    throw new InvalidParameterValue(`Invalid boot mode ${args.pyStr(target)} requested for node. Allowed boot modes are: bios, uefi`);
  }
  if (UNSTABLE_STATES.includes(node.provision_state ?? '')) throw new Conflict(TRANSITIONING);
  await ctx.state.deps.conductor.changeNodeBootMode(node.uuid, target);
  accepted(ctx);
  nodeLocation(ctx, ident, 'states');
}

async function setSecureBoot(ctx: Ctx): Promise<void> {
  const ident = ctx.params.node_ident;
  const a = readArgs(ctx, [{ name: 'target', validate: args.boolean, required: true }], () => nodeIdentArg(ident));
  const target = a.target as boolean | null;
  const node = await getNodeByIdent(ctx, ident);
  await conductorTopic(ctx, node);
  requireChangeBootMode(ctx);
  if (target !== true && target !== false) {
    throw new InvalidParameterValue(`Invalid secure_boot ${args.pyStr(target)} requested for node. Allowed secure_boot states are: True, False) `);
  }
  if (UNSTABLE_STATES.includes(node.provision_state ?? '')) throw new Conflict(TRANSITIONING);
  await ctx.state.deps.conductor.changeNodeSecureBoot(node.uuid, target);
  accepted(ctx);
  nodeLocation(ctx, ident, 'states');
}

async function getConsole(ctx: Ctx): Promise<void> {
  readArgs(ctx, [], () => nodeIdentArg(ctx.params.node_ident));
  const node = await getNodeByIdent(ctx, ctx.params.node_ident);
  await conductorTopic(ctx, node);
  try {
    const info = await ctx.state.deps.conductor.getConsoleInformation(node.uuid);
    ctx.body = { console_enabled: true, console_info: info };
  } catch (err) {
    if (!(err instanceof NodeConsoleNotEnabled)) throw err;
    ctx.body = { console_enabled: false, console_info: null };
  }
}

async function setConsole(ctx: Ctx): Promise<void> {
  const ident = ctx.params.node_ident;
  const a = readArgs(ctx, [{ name: 'enabled', validate: args.boolean, required: true }], () => nodeIdentArg(ident));
  const node = await getNodeByIdent(ctx, ident);
  await conductorTopic(ctx, node);
  await ctx.state.deps.conductor.setConsoleMode(node.uuid, a.enabled as boolean);
  accepted(ctx);
  nodeLocation(ctx, ident, 'states/console');
}

export function addStateRoutes(router: Router<ApiState>): void {
  router.get('/v1/nodes/:node_ident/states', getStates);
  router.put('/v1/nodes/:node_ident/states/power', setPower);
  router.put('/v1/nodes/:node_ident/states/raid', setRaid);
  router.put('/v1/nodes/:node_ident/states/boot_mode', setBootMode);
  router.put('/v1/nodes/:node_ident/states/secure_boot', setSecureBoot);
  router.get('/v1/nodes/:node_ident/states/console', getConsole);
  router.put('/v1/nodes/:node_ident/states/console', setConsole);
  // /v1/nodes/states/{node} and the like are rewritten to these paths (middleware/attribute-routes.ts).
}
