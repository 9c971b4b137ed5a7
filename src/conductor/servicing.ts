/**
 * Servicing an active node with user steps (manager.do_node_service and conductor/servicing.py of
 * Ironic 2025.1): the RPC checks, the service ramdisk, the validated steps run in order, and the
 * node back in `active` (or `service failed`).
 */
import {
  AgentConnectionFailed, AgentInProgress, InvalidParameterValue, InvalidState, InvalidStateRequested, IronicError,
  NodeInMaintenance,
} from '../common/errors';
import { refuseDisallowedSteps, withoutDisallowedSteps } from '../common/disallowed-steps';
import { log } from '../common/log';
import * as states from '../common/states';
import type { Step } from '../rpc/conductor-api';
import { errorText, provisioningErrorHandler, servicingErrorHandler, wipeServiceInternalInfo } from './error-handlers';
import { maskForEcho } from '../common/mask';
import { pyRepr } from '../common/python/repr';
import { cacheBiosSettings, cacheBootMode, cacheVendor } from './node-cache';
import { collectAgentLogs, deployLogsCollect } from '../drivers/agent/ramdisk-logs';
import { nextStepIndex, runSteps, type StepFlow } from './step-runner';
import { validateUserSteps } from './steps';
import type { Task } from './task';
import type { TaskManager } from './task-manager';

/** RPC do_node_service: refuses at once what would fail, then moves the node to `servicing`. */
export async function doNodeService(tasks: TaskManager, nodeId: string, serviceSteps: Step[], disableRamdisk?: boolean): Promise<void> {
  await tasks.run(nodeId, { purpose: 'node service' }, async (task) => {
    const node = task.node;
    if (node.maintenance) throw new NodeInMaintenance({ op: 'service', node: node.uuid });
    try {
      await task.driver.power.validate(task);
      await task.driver.network.validate(task);
    } catch (err) {
      if (err instanceof InvalidParameterValue) {
        throw new InvalidParameterValue(`Validation of node ${node.uuid} for servicing failed: ${err.message}`);
      }
      throw err;
    }
    // Refused before the transition, so the node stays where it is.
    refuseDisallowedSteps(task.ctx.conf, serviceSteps, 'service');
    try {
      await task.processEvent('service', {
        spawn: (t) => runServicing(t, serviceSteps, disableRamdisk ?? null), errHandler: provisioningErrorHandler,
        targetState: states.ACTIVE,
      });
    } catch (err) {
      if (err instanceof InvalidState) throw new InvalidStateRequested({ action: 'service', node: node.uuid, state: node.provision_state });
      throw err;
    }
  });
}

/** utils.node_update_cache: what servicing may have changed on the hardware. */
async function updateNodeCache(task: Task): Promise<void> {
  await cacheVendor(task);
  await cacheBootMode(task);
  await cacheBiosSettings(task);
}

/**
 * servicing.do_node_service: validation, the service ramdisk, the step list, then the steps.
 * `disableRamdisk` is stored as the request gave it (null when absent).
 */
async function runServicing(task: Task, userSteps: Step[], disableRamdiskArg: boolean | null): Promise<void> {
  const disableRamdisk = Boolean(disableRamdiskArg);
  const node = task.node;
  try {
    await task.driver.power.validate(task);
    if (!disableRamdisk) await task.driver.network.validate(task);
  } catch (err) {
    if (!(err instanceof InvalidParameterValue)) throw err;
    await servicingErrorHandler(task, `Validation of node ${node.uuid} for service failed: ${errorText(err)}`);
    return;
  }
  wipeServiceInternalInfo(task);
  node.driver_internal_info = { ...(node.driver_internal_info ?? {}), service_steps: userSteps,
    service_disable_ramdisk: disableRamdiskArg };
  await task.saveNode();
  await updateNodeCache(task);
  let prepared: string | null = null;
  try {
    if (disableRamdisk) log.info(`Skipping preparing for service in-band service since out-of-band only service has been requested for node ${node.uuid}`);
    else prepared = await task.driver.deploy.prepareService(task);
  } catch (err) {
    await servicingErrorHandler(task, `Failed to prepare node ${node.uuid} for service: ${errorText(err)}`);
    return;
  }
  // The ramdisk is booting: its first heartbeat sets the steps and starts them.
  if (prepared === states.SERVICEWAIT) {
    await task.processEvent('wait');
    return;
  }
  try {
    await setNodeServiceSteps(task, disableRamdisk);
  } catch (err) {
    await servicingErrorHandler(task, `Cannot service node ${node.uuid}: ${errorText(err)}`);
    return;
  }
  const steps = (node.driver_internal_info ?? {}).service_steps as unknown[];
  await continueServiceSteps(task, steps.length ? 0 : null, disableRamdisk);
}

/** steps.set_node_service_steps: the validated step list, no step started yet. */
async function setNodeServiceSteps(task: Task, disableRamdisk = false): Promise<void> {
  const node = task.node;
  const userSteps = ((node.driver_internal_info ?? {}).service_steps ?? []) as Step[];
  const steps = withoutDisallowedSteps(task.ctx.conf, validateUserSteps(task, 'service', userSteps, { disableRamdisk }), 'service');
  node.service_step = {};
  node.driver_internal_info = { ...(node.driver_internal_info ?? {}), service_steps: steps, service_step_index: null };
  await task.saveNode();
}

/** An agent rebooting after a step or busy with a command: the step runs again on its next heartbeat. */
async function waitForAgent(task: Task, err: unknown): Promise<boolean> {
  const info = task.node.driver_internal_info ?? {};
  const rebooting = err instanceof AgentConnectionFailed && Boolean(info.servicing_reboot);
  if (!rebooting && !(err instanceof AgentInProgress)) return false;
  log.info(`Agent on node ${task.node.uuid} cannot run service step ${pyRepr(task.node.service_step ?? {})} now, ` +
    `waiting for its next heartbeat: ${errorText(err)}`);
  task.node.driver_internal_info = { ...info, skip_current_service_step: false };
  await task.processEvent('wait');
  return true;
}

/** _tear_down_node_service: the service ramdisk goes, the caches are refreshed, the node is active again. */
async function finishServicing(task: Task, disableRamdisk: boolean): Promise<void> {
  const node = task.node;
  node.service_step = null;
  wipeServiceInternalInfo(task);
  // After the wipe, as in Ironic 29.0.5: the agent's URL is gone, so the collection only logs its failure.
  if (deployLogsCollect(task.ctx.conf) === 'always' && !disableRamdisk) await collectAgentLogs(task, 'service');
  await task.saveNode();
  if (!disableRamdisk) {
    try {
      await task.driver.deploy.tearDownService(task);
    } catch (err) {
      await servicingErrorHandler(task, `Failed to tear down from service for node ${node.uuid}, reason: ${errorText(err)}`,
        { tearDownService: false });
      return;
    }
  }
  await updateNodeCache(task);
  log.info(`Node ${node.uuid} service complete.`);
  await task.processEvent('done');
}

/** do_next_service_step's reactions. */
function serviceFlow(disableRamdisk: boolean): StepFlow {
  return {
    kind: 'service',
    waitState: states.SERVICEWAIT,
    starting: (task, step) => log.info(`Executing ${pyRepr(step)} on node ${task.node.uuid}`),
    async failed(task, _step, err) {
      if (await waitForAgent(task, err)) return;
      if (!disableRamdisk) await collectAgentLogs(task, 'service');
      await servicingErrorHandler(task,
        `Node ${task.node.uuid} failed step ${pyRepr(maskForEcho(task.node.service_step ?? {}))}: ${errorText(err)}`);
    },
    waiting: (task) => task.processEvent('wait'),
    async unexpected(task, step, result) {
      await servicingErrorHandler(task, `While executing step ${pyRepr(maskForEcho(step))} on node ${task.node.uuid}, ` +
        `step returned invalid value: ${result}`);
    },
    finished: (task) => finishServicing(task, disableRamdisk),
  };
}

/**
 * do_next_service_step: the steps from `index` (none when null); an unexpected error fails the
 * servicing (fail_on_error).
 */
async function continueServiceSteps(task: Task, index: number | null, disableRamdiskArg?: boolean): Promise<void> {
  const disableRamdisk = disableRamdiskArg ?? Boolean((task.node.driver_internal_info ?? {}).service_disable_ramdisk);
  try {
    await runSteps(task, serviceFlow(disableRamdisk), index);
  } catch (err) {
    const kind = err instanceof IronicError ? err.kind : (err as Error).name;
    await servicingErrorHandler(task, `Unexpected error when processing next service step. ${kind}: ${errorText(err)}`);
  }
}

/**
 * servicing.continue_node_service (also what `unhold` from `service hold` runs): the step after
 * the one that went asynchronous, unless it was flagged to abort once it completed.
 */
export async function continueNodeService(task: Task): Promise<void> {
  const node = task.node;
  const next = await nextStepIndex(task, 'service');
  const step = (node.service_step ?? {}) as Record<string, unknown>;
  if (step.abort_after && next !== null) {
    log.debug(`The service operation for node ${node.uuid} was marked to be aborted after step "${String(step.step)}" completed.`);
    await task.processEvent('fail');
    await serviceAbort(task);
    return;
  }
  await continueServiceSteps(task, next);
}

/**
 * The service ramdisk's first heartbeat (its steps are cached): resume, set the node's service steps
 * and run them; a failure there fails the servicing with `errorPrefix`.
 */
export async function startNodeService(task: Task, errorPrefix: string): Promise<void> {
  await task.processEvent('resume');
  try {
    await setNodeServiceSteps(task, Boolean((task.node.driver_internal_info ?? {}).service_disable_ramdisk));
  } catch (err) {
    const lastError = `${errorPrefix}: ${errorText(err)}`;
    await servicingErrorHandler(task, `Asynchronous exception for node ${task.node.uuid}: ${lastError}`, { errmsg: lastError });
    return;
  }
  await continueNodeService(task);
}

/** servicing.get_last_error. */
function abortedError(step: Record<string, unknown>): string {
  let msg = 'By request, the service operation was aborted';
  if (Object.keys(step).length) msg += ` during or after the completion of step "${String(step.interface)}.${String(step.step)}"`;
  return msg;
}

/** servicing.do_node_service_abort: tear the service ramdisk down and record why. */
export async function serviceAbort(task: Task): Promise<void> {
  const node = task.node;
  try {
    await task.driver.deploy.tearDownService(task);
  } catch (err) {
    await servicingErrorHandler(task, `Failed to tear down service for node ${node.uuid} after aborting the operation. ` +
      `Error: ${errorText(err)}`, {
      errmsg: 'Failed to tear down service after aborting the operation', tearDownService: false, setFailState: false,
    });
    return;
  }
  const step = (node.service_step ?? {}) as Record<string, unknown>;
  node.last_error = abortedError(step);
  node.service_step = null;
  wipeServiceInternalInfo(task);
  await task.saveNode();
  log.info(`Service operation aborted for node ${node.uuid}`);
}
