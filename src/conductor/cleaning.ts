/**
 * Cleaning (conductor/cleaning.py): automated cleaning runs the driver's steps with priority > 0
 * (skipped entirely when [conductor]automated_clean is off), manual cleaning runs the validated
 * user steps and returns to manageable.
 */
import { AgentConnectionFailed, AgentInProgress, InvalidStateRequested, InvalidParameterValue } from '../common/errors';
import { refuseDisallowedSteps, withoutDisallowedSteps } from '../common/disallowed-steps';
import { log } from '../common/log';
import * as states from '../common/states';
import type { Step } from '../rpc/conductor-api';
import { cleaningErrorHandler, errorText, provisioningErrorHandler, wipeCleaningInternalInfo } from './error-handlers';
import { isActionable } from './fsm';
import { maskForEcho } from '../common/mask';
import { pyRepr } from '../common/python/repr';
import { runSteps, type StepFlow } from './step-runner';
import {
  cleanPriorityOverrides, driverSteps, NodeStep, sortSteps, validateUserSteps, withPriorityOverrides,
} from './steps';
import type { Task } from './task';
import type { TaskManager } from './task-manager';
import { cacheBiosSettings, cacheFirmwareComponents } from './node-cache';
import { collectAgentLogs, deployLogsCollect } from '../drivers/agent/ramdisk-logs';

/** utils.skip_automated_cleaning: the node's own flag wins over [conductor]automated_clean. */
function skipAutomatedCleaning(task: Task): boolean {
  if (task.node.automated_clean) return false;
  if (task.node.automated_clean === null) return !task.ctx.conf.bool('conductor', 'automated_clean');
  return true;
}

/** The steps a cleaning runs: the validated user steps (manual) or the driver's enabled steps, as Ironic stores them. */
function cleaningSteps(task: Task, cleanSteps: Step[] | null, disableRamdisk: boolean): NodeStep[] {
  if (cleanSteps !== null) {
    return withoutDisallowedSteps(task.ctx.conf, validateUserSteps(task, 'clean', cleanSteps, { disableRamdisk }), 'clean');
  }
  const steps = withPriorityOverrides(driverSteps(task, 'clean'), cleanPriorityOverrides(task.ctx.conf));
  return withoutDisallowedSteps(task.ctx.conf, sortSteps(steps.filter((s) => s.priority !== 0)) as unknown as NodeStep[], 'clean');
}

/**
 * steps.set_node_cleaning_steps: the step list for this cleaning, with no step started yet. Called
 * at once for out-of-band cleaning, and on the agent's first heartbeat when the ramdisk's
 * in-band steps are known.
 */
export async function setNodeCleaningSteps(task: Task, disableRamdisk = false): Promise<void> {
  const node = task.node;
  const manual = node.target_provision_state === states.MANAGEABLE;
  const userSteps = manual ? ((node.driver_internal_info ?? {}).clean_steps ?? []) as Step[] : null;
  const steps = cleaningSteps(task, userSteps, disableRamdisk);
  node.clean_step = {};
  node.driver_internal_info = { ...(node.driver_internal_info ?? {}), clean_steps: steps, clean_step_index: null };
  await task.saveNode();
}

/** Starts cleaning on a task already in `cleaning` (cleaning.do_node_clean), in Ironic's order. */
export async function runCleaning(task: Task, cleanSteps: Step[] | null, disableRamdisk = false): Promise<void> {
  const node = task.node;
  const manual = cleanSteps !== null;
  if (!manual && skipAutomatedCleaning(task)) {
    node.clean_step = null;
    await task.saveNode();
    await task.processEvent('done');
    const how = node.automated_clean === false ? 'API' : 'configuration';
    log.info(`Automated cleaning is disabled via ${how}, node ${node.uuid} has been successfully moved to AVAILABLE state`);
    return;
  }
  if (!task.ctx.conf.bool('conductor', 'allow_provisioning_in_maintenance') && node.maintenance) {
    await cleaningErrorHandler(task, 'Cleaning a node in maintenance mode is not allowed', { tearDownCleaning: false });
    return;
  }
  try {
    await task.driver.power.validate(task);
    if (!disableRamdisk) await task.driver.network.validate(task);
  } catch (err) {
    if (!(err instanceof InvalidParameterValue)) throw err;
    await cleaningErrorHandler(task, `Validation of node ${node.uuid} for cleaning failed: ${errorText(err)}`);
    return;
  }
  wipeCleaningInternalInfo(task);
  if (manual) {
    node.driver_internal_info = { ...(node.driver_internal_info ?? {}), clean_steps: cleanSteps,
      cleaning_disable_ramdisk: disableRamdisk };
  }
  await task.saveNode();
  await cacheBiosSettings(task);
  await cacheFirmwareComponents(task);
  let prepared: string | null = null;
  try {
    if (!disableRamdisk) prepared = await task.driver.deploy.prepareCleaning(task);
  } catch (err) {
    await cleaningErrorHandler(task, `Failed to prepare node ${node.uuid} for cleaning: ${errorText(err)}`);
    return;
  }
  if (prepared === states.CLEANWAIT) {
    await task.processEvent('wait', { targetState: manual ? states.MANAGEABLE : null });
    return;
  }
  try {
    await setNodeCleaningSteps(task, disableRamdisk);
  } catch (err) {
    await cleaningErrorHandler(task, `Cannot clean node ${node.uuid}: ${errorText(err)}`);
    return;
  }
  await continueCleanSteps(task, 0, disableRamdisk);
}

/**
 * An agent that is rebooting after a step, or still busy with a command, is not a failure: wait
 * for its next heartbeat to run this step (do_next_clean_step's AgentConnectionFailed/AgentInProgress).
 */
async function waitForAgent(task: Task, err: unknown): Promise<boolean> {
  const info = task.node.driver_internal_info ?? {};
  const rebooting = err instanceof AgentConnectionFailed && Boolean(info.cleaning_reboot);
  if (!rebooting && !(err instanceof AgentInProgress)) return false;
  log.info(`Agent on node ${task.node.uuid} cannot run clean step ${pyRepr(task.node.clean_step ?? {})} now, ` +
    `waiting for its next heartbeat: ${errorText(err)}`);
  task.node.driver_internal_info = { ...info, skip_current_clean_step: false };
  const manual = task.node.target_provision_state === states.MANAGEABLE;
  await task.processEvent('wait', { targetState: manual ? states.MANAGEABLE : null });
  return true;
}

/** Cleaning is over: tear down the ramdisk, then `done` (automated) or `manage` (manual or retired). */
async function finishCleaning(task: Task, manual: boolean, disableRamdisk: boolean): Promise<void> {
  const node = task.node;
  if (deployLogsCollect(task.ctx.conf) === 'always' && !disableRamdisk) await collectAgentLogs(task, 'cleaning');
  node.clean_step = null;
  wipeCleaningInternalInfo(task);
  await task.saveNode();
  if (!disableRamdisk) {
    try {
      await task.driver.deploy.tearDownCleaning(task);
    } catch (err) {
      await cleaningErrorHandler(task, `Failed to tear down from cleaning for node ${node.uuid}, reason: ${errorText(err)}`,
        { tearDownCleaning: false });
      return;
    }
  }
  await cacheFirmwareComponents(task);
  log.info(`Node ${node.uuid} cleaning complete`);
  await task.processEvent(manual || node.retired ? 'manage' : 'done');
}

/** do_next_clean_step's reactions; `manual` and `disableRamdisk` are read when the steps (re)start. */
function cleanFlow(manual: boolean, disableRamdisk: boolean): StepFlow {
  return {
    kind: 'clean',
    waitState: states.CLEANWAIT,
    starting: (task, step) => log.info(`Executing ${pyRepr(step)} on node ${task.node.uuid}`),
    async failed(task, step, err) {
      if (await waitForAgent(task, err)) return;
      // Whatever failed, a ramdisk that ran may say why.
      if (!disableRamdisk) await collectAgentLogs(task, 'cleaning');
      await cleaningErrorHandler(task, `Node ${task.node.uuid} failed step ${pyRepr(maskForEcho(step))}: ${errorText(err)}`);
    },
    waiting: (task) => task.processEvent('wait', { targetState: manual ? states.MANAGEABLE : null }),
    async unexpected(task, step, result) {
      await cleaningErrorHandler(task, `While executing step ${pyRepr(maskForEcho(step))} on node ${task.node.uuid}, ` +
        `step returned invalid value: ${result}`);
    },
    finished: (task) => finishCleaning(task, manual, disableRamdisk),
  };
}

/** do_next_clean_step: runs steps from `index`, then `done` (automated) or `manage` (manual). */
export async function continueCleanSteps(task: Task, index: number | null, disableRamdiskArg?: boolean): Promise<void> {
  const node = task.node;
  const manual = node.target_provision_state === states.MANAGEABLE;
  const disableRamdisk = disableRamdiskArg ?? Boolean((node.driver_internal_info ?? {}).cleaning_disable_ramdisk);
  await runSteps(task, cleanFlow(manual, disableRamdisk), index);
}

/** RPC do_node_clean: manual cleaning from manageable. */
export async function doNodeClean(tasks: TaskManager, nodeId: string, cleanSteps: Step[], disableRamdisk = false): Promise<void> {
  await tasks.run(nodeId, { purpose: 'node manual cleaning' }, async (task) => {
    try {
      await task.driver.power.validate(task);
      if (!disableRamdisk) await task.driver.network.validate(task);
    } catch (err) {
      if (err instanceof InvalidParameterValue) {
        throw new InvalidParameterValue(`RPC do_node_clean failed to validate power info. Can not clean node ` +
          `${task.node.uuid}. Error: ${err.message}`);
      }
      throw err;
    }
    // Refused before the transition, so the node stays where it is.
    refuseDisallowedSteps(task.ctx.conf, cleanSteps, 'clean');
    if (!isActionable(task.node.provision_state, 'clean')) {
      throw new InvalidStateRequested({ action: 'clean', node: task.node.uuid, state: task.node.provision_state });
    }
    await task.processEvent('clean', {
      spawn: (t) => runCleaning(t, cleanSteps, disableRamdisk),
      errHandler: provisioningErrorHandler,
      targetState: states.MANAGEABLE,
    });
  });
}

