/**
 * The `abort` verb (manager._do_abort): what each abortable state tears down, the last_error it
 * leaves, and the state it lands in. Clean, rescue and inspect wait, the three holds
 * and service wait behave as in Ironic 2025.1; deploy wait and service failed follow later Ironic
 * releases (their transitions are above the API's microversions, so only RPC callers reach them).
 */
import { InvalidState, UnsupportedDriverExtension } from '../common/errors';
import { log } from '../common/log';
import * as states from '../common/states';
import {
  cleaningErrorHandler, deployingErrorHandler, errorText, provisioningErrorHandler, wipeCleaningInternalInfo,
  wipeDeployInternalInfo,
} from './error-handlers';
import { serviceAbort } from './servicing';
import { tearDownInstance } from './teardown';
import { statesLeftBy } from './fsm';
import type { Task } from './task';

/** The states `abort` leaves: every one is handled here (manager.do_provisioning_action). */
export const ABORTABLE_STATES: readonly string[] = statesLeftBy('abort');

type StepField = 'clean_step' | 'deploy_step' | 'service_step';

/** steps.step_id: interface.step. */
function stepId(step: Record<string, unknown>): string {
  return `${String(step.interface)}.${String(step.step)}`;
}

function stepOf(task: Task, field: StepField): Record<string, unknown> {
  return (task.node[field] ?? {}) as Record<string, unknown>;
}

/** Last error of an aborted operation, naming the step it was in (cleaning.get_last_error & co). */
function abortedError(operation: string, step: Record<string, unknown>): string {
  let msg = `By request, the ${operation} operation was aborted`;
  if (Object.keys(step).length) msg += ` during or after the completion of step "${stepId(step)}"`;
  return msg;
}

/**
 * A running step that is not abortable only gets flagged: the flow aborts once it completes.
 * Returns true when the abort was deferred that way.
 */
async function deferredToStepEnd(task: Task, field: StepField): Promise<boolean> {
  const step = stepOf(task, field);
  if (!Object.keys(step).length || step.abortable) return false;
  log.info(`The current step "${String(step.step)}" for node ${task.node.uuid} is not abortable. ` +
    'Adding a flag to abort after the step is completed.');
  if (!step.abort_after) {
    (task.node as unknown as Record<string, unknown>)[field] = { ...step, abort_after: true };
    await task.saveNode();
  }
  return true;
}

function dropAgentUrl(task: Task): void {
  const info = { ...(task.node.driver_internal_info ?? {}) };
  delete info.agent_url;
  task.node.driver_internal_info = info;
}

function wipeTokenAndUrl(task: Task): void {
  const info = { ...(task.node.driver_internal_info ?? {}) };
  for (const k of ['agent_secret_token', 'agent_secret_token_pregenerated', 'agent_url', 'agent_verify_ca']) delete info[k];
  task.node.driver_internal_info = info;
}

export async function doAbort(task: Task): Promise<void> {
  const state = task.node.provision_state;
  if (state === states.CLEANWAIT || state === states.CLEANHOLD) return abortCleaning(task);
  if (state === states.SERVICEWAIT || state === states.SERVICEHOLD) return abortServicing(task);
  if (state === states.SERVICEFAIL) return abortServiceFailed(task);
  if (state === states.RESCUEWAIT) return abortRescue(task);
  if (state === states.INSPECTWAIT) return abortInspection(task);
  if (state === states.DEPLOYWAIT || state === states.DEPLOYHOLD) return abortDeployment(task);
}

async function abortCleaning(task: Task): Promise<void> {
  if (await deferredToStepEnd(task, 'clean_step')) return;
  const manual = task.node.target_provision_state === states.MANAGEABLE;
  await task.processEvent('abort', {
    spawn: cleanAbort, errHandler: provisioningErrorHandler,
    targetState: manual ? states.MANAGEABLE : null, lastError: abortedError('clean', stepOf(task, 'clean_step')),
  });
}

/** cleaning.do_node_clean_abort. */
export async function cleanAbort(task: Task): Promise<void> {
  const node = task.node;
  try {
    await task.driver.deploy.tearDownCleaning(task);
  } catch (err) {
    await cleaningErrorHandler(task, `Failed to tear down cleaning for node ${node.uuid} after aborting the operation. ` +
      `Error: ${errorText(err)}`, {
      errmsg: 'Failed to tear down cleaning after aborting the operation', tearDownCleaning: false, setFailState: false,
    });
    return;
  }
  node.last_error = abortedError('clean', stepOf(task, 'clean_step'));
  node.clean_step = null;
  wipeCleaningInternalInfo(task);
  await task.saveNode();
  log.info(`Clean operation aborted for node ${node.uuid}`);
}

/** Service wait and service hold: Ironic 2025.1 only moves the node to service failed. */
async function abortServicing(task: Task): Promise<void> {
  await task.processEvent('abort');
}

/** Service failed -> active (a later Ironic's transition, above the API's microversions). */
async function abortServiceFailed(task: Task): Promise<void> {
  if (task.node.maintenance) {
    throw new InvalidState(`Can not abort service on node "${task.node.uuid}" while it is in maintenance mode. Please ` +
      'remove the node from maintenance prior to issuing the request to abort the service operation.');
  }
  await task.processEvent('abort', { spawn: serviceAbort, errHandler: provisioningErrorHandler });
}

async function abortRescue(task: Task): Promise<void> {
  const info = { ...(task.node.instance_info ?? {}) };
  delete info.rescue_password;
  delete info.hashed_rescue_password;
  task.node.instance_info = info;
  await task.saveNode();
  await task.processEvent('abort', { spawn: rescueAbort, errHandler: provisioningErrorHandler });
}

/** _do_node_rescue_abort: rescue clean-up only; the power state is left as it is. */
async function rescueAbort(task: Task): Promise<void> {
  const node = task.node;
  try {
    await task.driver.rescue.cleanUp(task);
  } catch (err) {
    log.error(`Failed to clean up rescue for node ${node.uuid} after aborting the operation: ${errorText(err)}`);
    const msg = 'Failed to clean up rescue after aborting the operation';
    await task.refresh();
    await task.recordHistory(msg, states.HISTORY_RESCUE, true);
    node.maintenance = true;
    node.maintenance_reason = msg;
    node.fault = states.FAULT_RESCUE_ABORT_FAILURE;
    await task.saveNode();
    return;
  }
  // Not an error: the node is back in normal operation, so last_error stays as it was.
  await task.recordHistory('By request, the rescue operation was aborted.', states.HISTORY_RESCUE, false);
  dropAgentUrl(task);
  await task.saveNode();
  log.info(`Rescue operation aborted for node ${node.uuid}.`);
}

async function abortInspection(task: Task): Promise<void> {
  const node = task.node;
  try {
    await task.driver.inspect.abort(task);
  } catch (err) {
    if (!(err instanceof UnsupportedDriverExtension)) {
      await task.recordHistory(`Failed to abort inspection: ${errorText(err)}`, states.HISTORY_INTROSPECTION, true);
      await task.saveNode();
    }
    throw err;
  }
  await task.recordHistory('Inspection was aborted by request.', states.HISTORY_INTROSPECTION, true);
  wipeTokenAndUrl(task);
  await task.processEvent('abort');
  log.info(`Successfully aborted inspection of node ${node.uuid}`);
}

/** Deploy wait and deploy hold: break off the agent, then the deployment goes. */
async function abortDeployment(task: Task): Promise<void> {
  const hold = task.node.provision_state === states.DEPLOYHOLD;
  if (!hold && await deferredToStepEnd(task, 'deploy_step')) return;
  dropAgentUrl(task);
  await task.processEvent('abort', { spawn: hold ? tearDownHeldDeploy : deployAbort, errHandler: provisioningErrorHandler });
}

/**
 * Ironic 2025.1 aborts a deploy hold into deploy failed with the tear down `delete` runs
 * (_do_node_tear_down). Its closing `clean` has no transition out of deploy failed, so the
 * spawned work fails, and the task manager records that as the node's last_error.
 */
async function tearDownHeldDeploy(task: Task): Promise<void> {
  if (!await tearDownInstance(task)) return;
  try {
    await task.processEvent('clean');
  } catch (err) {
    if (!(err instanceof InvalidState)) throw err;
    task.node.last_error = `Async execution of _do_node_tear_down failed with error: ${err.message}`;
    await task.saveNode();
  }
}

/** deployments.do_node_deploy_abort. */
async function deployAbort(task: Task): Promise<void> {
  const node = task.node;
  try {
    await task.driver.deploy.cleanUp(task);
  } catch (err) {
    await deployingErrorHandler(task, `Failed to clean up deploying for node ${node.uuid} after aborting the operation. ` +
      `Error: ${errorText(err)}`, 'Failed to clean up deploying after aborting the operation', false);
    return;
  }
  node.last_error = abortedError('deploy', stepOf(task, 'deploy_step'));
  node.deploy_step = {};
  wipeDeployInternalInfo(task);
  await task.saveNode();
  log.info(`Deploy operation aborted for node ${node.uuid}`);
}
