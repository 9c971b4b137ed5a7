/**
 * What happens to a node when work on it fails (conductor/utils.py *_error_handler): the
 * last_error texts, node_history events, fault/maintenance flags and the `fail` transition.
 */
import { InvalidState, NoFreeConductorWorker } from '../common/errors';
import { log } from '../common/log';
import * as states from '../common/states';
import { fastTrackAble } from '../drivers/agent/fast-track';
import type { Task } from './task';

const NO_WORKERS = 'No free conductor workers available';

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** err_handler of provisioning events: put the states back when no worker could start. */
export async function provisioningErrorHandler(err: Error, task: Task, prevState: string | null,
  prevTarget: string | null): Promise<void> {
  if (!(err instanceof NoFreeConductorWorker)) return;
  task.node.provision_state = prevState;
  task.node.target_provision_state = prevTarget;
  await task.recordHistory(NO_WORKERS, states.HISTORY_PROVISIONING, true);
  await task.saveNode();
}

/** _spawn_error_handler: a non-provisioning action could not start. */
export function spawnErrorHandler(operation: string) {
  return async (err: Error, task: Task): Promise<void> => {
    if (!(err instanceof NoFreeConductorWorker)) return;
    await task.recordHistory(NO_WORKERS, states.HISTORY_CONDUCTOR, true);
    await task.saveNode();
    log.warning(`No free conductor workers available to perform ${operation} on node ${task.node.uuid}`);
  };
}

export function powerStateErrorHandler(previousPower: string | null) {
  return async (err: Error, task: Task): Promise<void> => {
    if (!(err instanceof NoFreeConductorWorker)) return;
    task.node.power_state = previousPower;
    task.node.target_power_state = null;
    await task.recordHistory(NO_WORKERS, states.HISTORY_CONDUCTOR, true);
    await task.saveNode();
  };
}

const TOKEN_AND_URL = ['agent_secret_token', 'agent_secret_token_pregenerated', 'agent_url', 'agent_verify_ca'];

function dropInternal(task: Task, ...keys: string[]): void {
  const info = { ...(task.node.driver_internal_info ?? {}) };
  for (const k of keys) delete info[k];
  task.node.driver_internal_info = info;
}

/** wipe_token_and_url, unless fast track may use the running agent again (fast_track_able). */
function wipeTokenAndUrlUnlessFastTrack(task: Task): void {
  let able = false;
  try {
    able = fastTrackAble(task);
  } catch {
    // A node whose driver cannot be built has no agent to keep.
  }
  if (!able) dropInternal(task, ...TOKEN_AND_URL);
}

export function wipeDeployInternalInfo(task: Task): void {
  wipeTokenAndUrlUnlessFastTrack(task);
  dropInternal(task, 'user_deploy_steps', 'agent_cached_deploy_steps', 'deploy_step_index', 'deployment_reboot',
    'deployment_polling', 'skip_current_deploy_step', 'steps_validated');
  task.node.driver_internal_info = { ...(task.node.driver_internal_info ?? {}), deploy_steps: null };
}

export function wipeCleaningInternalInfo(task: Task): void {
  wipeTokenAndUrlUnlessFastTrack(task);
  dropInternal(task, 'agent_cached_clean_steps', 'clean_step_index', 'cleaning_reboot', 'cleaning_polling',
    'cleaning_disable_ramdisk', 'skip_current_clean_step', 'steps_validated');
  task.node.driver_internal_info = { ...(task.node.driver_internal_info ?? {}), clean_steps: null };
}

/** async_steps._ALL_FLAGS: the reboot, skip and polling flags of every flow. */
const ASYNC_FLAGS = ['cleaning_reboot', 'deployment_reboot', 'servicing_reboot', 'skip_current_clean_step',
  'skip_current_deploy_step', 'skip_current_service_step', 'cleaning_polling', 'deployment_polling', 'servicing_polling'];

export function wipeServiceInternalInfo(task: Task): void {
  dropInternal(task, ...TOKEN_AND_URL, 'agent_cached_service_steps', 'service_step_index', 'service_disable_ramdisk',
    'steps_validated', 'image_source', ...ASYNC_FLAGS);
  task.node.driver_internal_info = { ...(task.node.driver_internal_info ?? {}), service_steps: null };
}

/** deploying_error_handler: history + last_error, deploy clean up, then `fail` -> deploy failed. */
export async function deployingErrorHandler(task: Task, logmsg: string, errmsg?: string, cleanUp = true): Promise<void> {
  const message = errmsg ?? logmsg;
  log.error(logmsg);
  await task.recordHistory(message, states.HISTORY_DEPLOYING, true);
  await task.saveNode();
  let cleanupErr: string | null = null;
  if (cleanUp) {
    try {
      await task.driver.deploy.cleanUp(task);
    } catch (err) {
      cleanupErr = `${message}. Also failed to clean up due to: ${errorText(err)}`;
    }
  }
  await task.refresh();
  if ([states.DEPLOYING, states.DEPLOYWAIT, states.DEPLOYFAIL].includes(task.node.provision_state ?? '')) {
    task.node.deploy_step = {};
    wipeDeployInternalInfo(task);
  }
  if (cleanupErr) await task.recordHistory(cleanupErr, states.HISTORY_DEPLOYING, true);
  await task.saveNode();
  await task.processEvent('fail');
}

/**
 * deploy_utils.set_failed_state: deploy failed without the deploy clean up, then powered off
 * ([deploy]power_off_after_deploy_failure); last_error is the message, whatever the power action did.
 */
export async function setFailedState(task: Task, msg: string): Promise<void> {
  try {
    await deployingErrorHandler(task, msg, msg, false);
  } catch (err) {
    if (!(err instanceof InvalidState)) throw err;
    log.error(`Internal error. Node ${task.node.uuid} in provision state "${task.node.provision_state}" could not transition to a failed state.`);
  }
  if (task.ctx.conf.bool('deploy', 'power_off_after_deploy_failure')) {
    try {
      await task.powerAction(states.POWER_OFF);
    } catch (err) {
      log.error(`Node ${task.node.uuid} failed to power off while handling deploy failure (${errorText(err)}). This may be a serious ` +
        'condition. Node should be removed from Ironic or put in maintenance mode until the problem is resolved.');
    }
  }
  task.node.last_error = msg;
  await task.saveNode();
}

/** cleaning_error_handler: clean failed (+ maintenance/fault when a step was running). */
export async function cleaningErrorHandler(task: Task, logmsg: string, opts: {
  errmsg?: string; tearDownCleaning?: boolean; setFailState?: boolean; setMaintenance?: boolean;
} = {}): Promise<void> {
  const node = task.node;
  const setMaintenance = opts.setMaintenance ?? Boolean(node.clean_step && Object.keys(node.clean_step).length);
  let errmsg = opts.errmsg ?? logmsg;
  log.error(logmsg);
  if (setMaintenance) {
    node.fault = states.FAULT_CLEAN_FAILURE;
    node.maintenance = true;
  }
  if (opts.tearDownCleaning ?? true) {
    try {
      await task.driver.deploy.tearDownCleaning(task);
    } catch {
      errmsg = `${errmsg}. Also failed to tear down cleaning.`;
    }
  }
  if ([states.CLEANING, states.CLEANWAIT, states.CLEANFAIL].includes(node.provision_state ?? '')) {
    node.clean_step = {};
    dropInternal(task, 'clean_step_index', 'cleaning_reboot', 'cleaning_polling', 'skip_current_clean_step',
      'agent_secret_token', 'agent_secret_token_pregenerated', 'agent_url', 'agent_verify_ca');
  }
  const manualClean = node.target_provision_state === states.MANAGEABLE;
  await task.recordHistory(errmsg, states.HISTORY_CLEANING, true);
  if (!node.maintenance_reason && setMaintenance) node.maintenance_reason = errmsg;
  await task.saveNode();
  if ((opts.setFailState ?? true) && node.provision_state !== states.CLEANFAIL) {
    await task.processEvent('fail', { targetState: manualClean ? states.MANAGEABLE : null });
  }
}

/**
 * servicing_error_handler: service failed, with maintenance and fault `service failure` when a step
 * was running, the service ramdisk torn down, and the step bookkeeping dropped.
 */
export async function servicingErrorHandler(task: Task, logmsg: string, opts: {
  errmsg?: string; tearDownService?: boolean; setFailState?: boolean; setMaintenance?: boolean;
} = {}): Promise<void> {
  const node = task.node;
  const setMaintenance = opts.setMaintenance ?? Boolean(node.service_step && Object.keys(node.service_step).length);
  let errmsg = opts.errmsg ?? logmsg;
  log.error(logmsg);
  if (setMaintenance) {
    node.fault = states.FAULT_SERVICE_FAILURE;
    node.maintenance = true;
  }
  if (opts.tearDownService ?? true) {
    try {
      await task.driver.deploy.tearDownService(task);
    } catch (err) {
      log.error(`Failed to tear down servicing on node ${node.uuid}, reason: ${errorText(err)}`);
      errmsg = `${errmsg}. Also failed to tear down servicing.`;
    }
  }
  if ([states.SERVICING, states.SERVICEWAIT, states.SERVICEFAIL].includes(node.provision_state ?? '')) {
    node.service_step = {};
    dropInternal(task, 'service_step_index', ...ASYNC_FLAGS, ...TOKEN_AND_URL);
  }
  await task.recordHistory(errmsg, states.SERVICING, true);
  if (!node.maintenance_reason && setMaintenance) node.maintenance_reason = errmsg;
  if (task.ctx.conf.bool('conductor', 'poweroff_in_servicefail')) await task.powerAction(states.POWER_OFF);
  await task.saveNode();
  if ((opts.setFailState ?? true) && node.provision_state !== states.SERVICEFAIL) await task.processEvent('fail');
}
