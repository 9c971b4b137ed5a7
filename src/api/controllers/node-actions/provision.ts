/**
 * PUT /v1/nodes/{ident}/states/provision (NodeStatesController.provision of Ironic 2025.1): verb
 * version gates, the state-machine check (api/machine.ts, from conductor/fsm.ts), configdrive /
 * runbook / steps / rescue password / disable_ramdisk rules in Ironic's order, then the conductor
 * call. ironic-ts adds `extra_data`: an object handed untouched to the deploy (DeployRequest.extraData).
 */
import { BadRequest, ClientSideError, InvalidParameterValue, withCode, InvalidStateRequested, NodeInMaintenance, NodeLocked, NotAcceptable }
  from '../../../common/errors';
import { refuseDisallowedSteps } from '../../../common/disallowed-steps';
import { validationErrorText } from '../../../common/jsonschema';
import { pyTruthy } from '../../../common/python/truthiness';
import type { DeployRequest, Step } from '../../../rpc/conductor-api';
import { getNodeByIdent, type NodeRecord } from '../../node-lookup';
import { authorizeOwned, nodeOwnerTarget } from '../../policy/scope';
import * as args from '../../schemas/args';
import type { Schema } from '../../schemas/jsonschema';
import { CLEAN_STEPS_SCHEMA, CONFIGDRIVE_SCHEMA, DEPLOY_STEPS_SCHEMA } from '../../schemas/node';
import type { ApiContext } from '../../state';
import { V } from '../../versions';
import { accepted, conductorTopic, nodeIdentArg, nodeLocation, readArgs, typesArg } from './params';
import { apiVerb, isActionableTarget, lateVerbAllowedAt, transitionAllowedAt, verbAllowedAt } from '../../machine';
import { getRunbook, runbookSteps } from '../../runbook-lookup';

type Ctx = ApiContext & { params: Record<string, string> };

const B64_ALPHABET = /^[A-Za-z0-9+/=\n\r\t ]*$/;

function checkConfigdrive(ctx: ApiContext, target: string, configdrive: unknown): void {
  if (!pyTruthy(configdrive)) return;
  const allowed = ['active'];
  if (ctx.state.version >= V.REBUILD_CONFIG_DRIVE) allowed.push('rebuild');
  if (!allowed.includes(target)) {
    throw new ClientSideError(`Adding a config drive is only supported when setting provision state to ${allowed.join(', ')}`);
  }
  const problem = validationErrorText(configdrive, CONFIGDRIVE_SCHEMA);
  if (problem !== null) throw new ClientSideError(`Invalid configdrive format: ${problem}`);
  if (typeof configdrive === 'object') {
    if (ctx.state.version < V.BUILD_CONFIGDRIVE) {
      throw new ClientSideError(`Providing a JSON object for configdrive is only supported starting with API version 1.${V.BUILD_CONFIGDRIVE}`);
    }
    if ('vendor_data' in (configdrive as object) && ctx.state.version < V.CONFIGDRIVE_VENDOR_DATA) {
      throw new ClientSideError(`Providing vendor_data in configdrive is only supported starting with API version 1.${V.CONFIGDRIVE_VENDOR_DATA}`);
    }
  } else if (typeof configdrive === 'string' && !configdrive.includes('://') && !B64_ALPHABET.test(configdrive)) {
    throw new ClientSideError('Invalid configdrive format: it is neither a JSON, nor a URL, nor a base64 string');
  }
}

/** _check_steps and the operator's disallowed steps (_check_clean_steps & co). */
/** _check_steps: the schema, then the child nodes a step names (each a UUID of a node the caller may see), then the disallowed steps. */
async function checkSteps(ctx: ApiContext, steps: unknown, kind: 'clean' | 'deploy' | 'service', schema: Schema): Promise<void> {
  const problem = validationErrorText(steps, schema);
  if (problem !== null) throw new InvalidParameterValue(`Invalid ${kind}_steps: ${problem}`);
  for (const step of steps as Step[]) await checkChildNodes(ctx, step);
  refuseDisallowedSteps(ctx.state.deps.conf, steps as Step[], kind);
}

async function checkChildNodes(ctx: ApiContext, step: Step): Promise<void> {
  const limit = (step as { limit_child_node_execution?: unknown }).limit_child_node_execution;
  if (!(step as { execute_on_child_nodes?: unknown }).execute_on_child_nodes || !Array.isArray(limit)) return;
  for (const entry of limit) {
    // Ironic means to name the step here and fails in Python instead (a 500); this names it.
    if (!args.isUuidLike(entry)) {
      throw new InvalidParameterValue(`Invalid entry detected for execute_on_child_node parameter in step ${step.step}.`);
    }
    await getNodeByIdent(ctx, entry);
  }
}

interface ProvisionArgs {
  target: string;
  configdrive: unknown;
  cleanSteps: unknown[] | null;
  deploySteps: unknown[] | null;
  serviceSteps: unknown[] | null;
  runbook: string | null;
  rescuePassword: string | null;
  disableRamdisk: boolean | null;
  extraData: Record<string, unknown> | null;
}

function readProvisionArgs(ctx: Ctx): ProvisionArgs {
  const ident = ctx.params.node_ident;
  const a = readArgs(ctx, [
    { name: 'target', validate: args.string, required: true },
    { name: 'configdrive', validate: typesArg(['NoneType', 'dict', 'str']) },
    { name: 'clean_steps', validate: typesArg(['NoneType', 'list']) },
    { name: 'deploy_steps', validate: typesArg(['NoneType', 'list']) },
    { name: 'rescue_password', validate: args.string },
    { name: 'disable_ramdisk', validate: args.boolean },
    { name: 'extra_data', validate: typesArg(['NoneType', 'dict']) },
    { name: 'service_steps', validate: typesArg(['NoneType', 'list']) },
    { name: 'runbook', validate: typesArg(['NoneType', 'str']) },
  ], () => nodeIdentArg(ident));
  return {
    target: a.target as string,
    configdrive: a.configdrive ?? null,
    cleanSteps: (a.clean_steps ?? null) as unknown[] | null,
    deploySteps: (a.deploy_steps ?? null) as unknown[] | null,
    serviceSteps: (a.service_steps ?? null) as unknown[] | null,
    runbook: (a.runbook ?? null) as string | null,
    rescuePassword: (a.rescue_password ?? null) as string | null,
    disableRamdisk: (a.disable_ramdisk ?? null) as boolean | null,
    extraData: (a.extra_data ?? null) as Record<string, unknown> | null,
  };
}

const RUNBOOK_TARGETS = "['clean', 'service']";

/**
 * _handle_runbook: the runbook's steps stand in for clean_steps or service_steps (never both), and
 * its disable_ramdisk for the request's; only a runbook named among the node's traits may run.
 */
async function applyRunbook(ctx: ApiContext, a: ProvisionArgs, node: NodeRecord, ident: string): Promise<void> {
  if (ctx.state.version < V.RUNBOOKS) throw new NotAcceptable();
  const runbook = await getRunbook(ctx, ident);
  authorizeOwned(ctx.state.auth, 'baremetal:runbook:use', 'runbook', runbook.owner);
  if (!node.traits.some((t) => t.trait === runbook.name)) {
    throw new ClientSideError(`This runbook has not been approved for use on this node ${node.uuid}. ` +
      'Please ask an administrator to add it to your node traits.');
  }
  a.disableRamdisk = runbook.disable_ramdisk ?? false;
  if (a.target === 'clean') {
    if (pyTruthy(a.cleanSteps)) throw new ClientSideError('Please provide either "clean_steps" or a runbook, but not both.');
    a.cleanSteps = runbookSteps(runbook);
  } else if (a.target === 'service') {
    if (pyTruthy(a.serviceSteps)) throw new ClientSideError('Please provide either "service_steps" or a runbook, but not both.');
    a.serviceSteps = runbookSteps(runbook);
  }
}

/** "<steps>" is only valid with its own verb; steps a runbook supplied name the runbook instead. */
function checkStepsTarget(a: ProvisionArgs, steps: unknown, verb: 'clean' | 'service'): void {
  if (!pyTruthy(steps) || a.target === verb) return;
  throw new ClientSideError(a.runbook
    ? `"runbooks" is only valid when setting target provision state to any of ${RUNBOOK_TARGETS}`
    : `"${verb}_steps" is only valid when setting target provision state to ${verb}`);
}

/** Everything Ironic checks between the state-machine test and the conductor call, in its order. */
async function checkRequest(ctx: ApiContext, a: ProvisionArgs, node: NodeRecord): Promise<void> {
  checkConfigdrive(ctx, a.target, a.configdrive);
  if (a.runbook) await applyRunbook(ctx, a, node, a.runbook);
  if (a.disableRamdisk !== null) {
    if (ctx.state.version < V.DISABLE_RAMDISK) throw new NotAcceptable('disable_ramdisk is not acceptable in this API version');
    // exception.BadRequest is Invalid (400) in Ironic 2025.1.
    if (a.target !== 'clean') throw withCode(new BadRequest('disable_ramdisk is supported only with manual cleaning'), 400);
  }
  checkStepsTarget(a, a.cleanSteps, 'clean');
  if (pyTruthy(a.deploySteps)) {
    if (ctx.state.version < V.DEPLOY_STEPS_IN_PROVISION) {
      throw new NotAcceptable(`Request not acceptable. The minimal required API version should be 1.${V.DEPLOY_STEPS_IN_PROVISION}`);
    }
    if (a.target !== 'active' && a.target !== 'rebuild') {
      throw new ClientSideError('"deploy_steps" is only valid when setting target provision state to active or rebuild');
    }
  }
  if (a.rescuePassword !== null && a.target !== 'rescue') {
    throw new ClientSideError('"rescue_password" is only valid when setting target provision state to rescue');
  }
  if (a.extraData !== null && !['active', 'rebuild', 'deploy'].includes(a.target)) {
    throw new ClientSideError('"extra_data" is only valid when setting target provision state to active, rebuild or deploy');
  }
  if (!transitionAllowedAt(node.provision_state, a.target, ctx.state.version)) throw new NotAcceptable();
  if (a.target === 'unhold' && !lateVerbAllowedAt(a.target, ctx.state.version)) throw new NotAcceptable();
  checkStepsTarget(a, a.serviceSteps, 'service');
  if (a.target === 'service' && !lateVerbAllowedAt(a.target, ctx.state.version)) throw new NotAcceptable();
}

/** _do_provision_action: the conductor call for the verb. */
async function dispatch(ctx: ApiContext, uuid: string, a: ProvisionArgs): Promise<void> {
  const c = ctx.state.deps.conductor;
  const t = a.target;
  if (t === 'active' || t === 'rebuild' || t === 'deploy') {
    if (pyTruthy(a.deploySteps)) await checkSteps(ctx, a.deploySteps, 'deploy', DEPLOY_STEPS_SCHEMA);
    const request: DeployRequest = { rebuild: t === 'rebuild' };
    if (pyTruthy(a.configdrive)) request.configdrive = a.configdrive as DeployRequest['configdrive'];
    if (pyTruthy(a.deploySteps)) request.deploySteps = a.deploySteps as Step[];
    if (a.extraData !== null) request.extraData = a.extraData;
    await c.doNodeDeploy(uuid, request);
  } else if (t === 'unrescue') {
    await c.doNodeUnrescue(uuid);
  } else if (t === 'rescue') {
    if (!a.rescuePassword || !a.rescuePassword.trim()) {
      throw new ClientSideError('A non-empty "rescue_password" is required when setting target provision state to rescue');
    }
    await c.doNodeRescue(uuid, a.rescuePassword);
  } else if (t === 'deleted' || t === 'undeploy') {
    await c.doNodeTearDown(uuid);
  } else if (t === 'inspect') {
    await c.inspectHardware(uuid);
  } else if (t === 'clean') {
    if (!pyTruthy(a.cleanSteps)) throw new ClientSideError('"clean_steps" is required when setting target provision state to clean');
    await checkSteps(ctx, a.cleanSteps, 'clean', CLEAN_STEPS_SCHEMA);
    await c.doNodeClean(uuid, a.cleanSteps as Step[], a.disableRamdisk ?? undefined);
  } else if (t === 'service') {
    if (!pyTruthy(a.serviceSteps)) {
      throw new ClientSideError('"service_steps" is required when setting target provision state to service');
    }
    await checkSteps(ctx, a.serviceSteps, 'service', CLEAN_STEPS_SCHEMA);
    await c.doNodeService(uuid, a.serviceSteps as Step[], a.disableRamdisk ?? undefined);
  } else if (apiVerb(t) !== undefined) {
    // PROVISION_ACTION_STATES: the verbs left (manage, provide, abort, adopt, unhold) are plain actions.
    await c.doProvisioningAction(uuid, t);
  } else {
    throw new InvalidStateRequested(`The requested action "${t}" could not be understood.`);
  }
}

/**
 * The secondary rules for arbitrary steps (checked before the request's content): a runbook's
 * steps are governed by baremetal:runbook:use instead.
 */
function authorizeSteps(ctx: ApiContext, a: ProvisionArgs, node: NodeRecord): void {
  const auth = ctx.state.auth;
  if (!auth || a.runbook) return;
  const target = nodeOwnerTarget(auth, node);
  if (pyTruthy(a.cleanSteps)) auth.enforcer.authorize('baremetal:node:set_provision_state:clean_steps', auth.creds, target);
  if (pyTruthy(a.serviceSteps)) auth.enforcer.authorize('baremetal:node:set_provision_state:service_steps', auth.creds, target);
}

export async function setProvisionState(ctx: Ctx): Promise<void> {
  const ident = ctx.params.node_ident;
  const a = readProvisionArgs(ctx);
  const node = await getNodeByIdent(ctx, ident);
  if (!verbAllowedAt(a.target, ctx.state.version)) throw new NotAcceptable();
  authorizeSteps(ctx, a, node);
  if ((a.target === 'active' || a.target === 'rebuild') && node.maintenance) {
    throw new NodeInMaintenance({ op: 'provisioning', node: node.uuid });
  }
  if (!isActionableTarget(node.provision_state, a.target)) {
    if (node.reservation) throw new NodeLocked({ node: node.uuid, host: node.reservation });
    throw new InvalidStateRequested({ action: a.target, node: node.uuid, state: node.provision_state });
  }
  await checkRequest(ctx, a, node);
  await conductorTopic(ctx, node);
  await dispatch(ctx, node.uuid, a);
  accepted(ctx);
  nodeLocation(ctx, ident, 'states');
}
