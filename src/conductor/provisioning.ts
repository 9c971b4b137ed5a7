/**
 * do_provisioning_action: manage (verify from enroll), provide (automated clean), adopt, abort,
 * unhold, and the plain transitions (e.g. available -> manageable).
 */
import { InvalidState, InvalidStateRequested, NodeInMaintenance, NodeIsRetired } from '../common/errors';
import { log } from '../common/log';
import * as states from '../common/states';
import { runCleaning } from './cleaning';
import { errorText, provisioningErrorHandler } from './error-handlers';
import { nodePowerAction } from './power';
import type { Task } from './task';
import type { TaskManager } from './task-manager';

export async function doProvisioningAction(tasks: TaskManager, nodeId: string, action: string): Promise<void> {
  await tasks.run(nodeId, { purpose: `provision action ${action}` }, async (task) => {
    const node = task.node;
    const state = node.provision_state;
    if (action === 'provide' && state === states.MANAGEABLE) {
      if (!task.ctx.conf.bool('conductor', 'allow_provisioning_in_maintenance') && node.maintenance) {
        throw new NodeInMaintenance({ op: 'providing', node: node.uuid });
      }
      if (node.retired) throw new NodeIsRetired({ op: 'providing', node: node.uuid });
      await task.processEvent('provide', { spawn: (t) => runCleaning(t, null), errHandler: provisioningErrorHandler });
      return;
    }
    if (action === 'manage' && state === states.ENROLL) {
      await task.processEvent('manage', { spawn: runVerify, errHandler: provisioningErrorHandler });
      return;
    }
    if (action === 'adopt' && (state === states.MANAGEABLE || state === states.ADOPTFAIL)) {
      await task.processEvent('adopt', { spawn: runAdoption, errHandler: provisioningErrorHandler });
      return;
    }
    if (action === 'abort' && [states.CLEANWAIT, states.RESCUEWAIT, states.INSPECTWAIT].includes(state ?? '')) {
      await doAbort(task);
      return;
    }
    try {
      await task.processEvent(action);
    } catch (err) {
      if (err instanceof InvalidState) throw new InvalidStateRequested({ action, node: node.uuid, state });
      throw err;
    }
  });
}

/** do_node_verify: power credentials must validate and the power state must be readable. */
async function runVerify(task: Task): Promise<void> {
  const node = task.node;
  let error: string | null = null;
  let power: string | null = null;
  try {
    await task.driver.power.validate(task);
    try {
      power = await task.driver.power.getPowerState(task);
    } catch (err) {
      error = `Failed to get power state for node ${node.uuid}. Error: ${errorText(err)}`;
    }
  } catch (err) {
    error = `Failed to validate power driver interface for node ${node.uuid}. Error: ${errorText(err)}`;
  }
  if (error) {
    log.error(error);
    await task.recordHistory(error, states.HISTORY_VERIFY, true);
    await task.processEvent('fail');
    return;
  }
  node.power_state = power;
  await task.processEvent('done');
  log.info(`Successfully verified node ${node.uuid}`);
}

/** _do_takeover: the deploy interface re-takes the node and it becomes ours. */
export async function doTakeover(task: Task): Promise<void> {
  await task.driver.deploy.prepare(task);
  await task.driver.deploy.takeOver(task);
  if (task.node.console_enabled) {
    try {
      await task.driver.console.startConsole(task);
    } catch (err) {
      const msg = `Failed to start console while taking over the node ${task.node.uuid}: ${errorText(err)}.`;
      await task.recordHistory(msg, states.HISTORY_TAKEOVER, true);
      task.node.console_enabled = false;
    }
  }
  task.node.conductor_affinity = task.ctx.conductorId;
  await task.saveNode();
}

async function runAdoption(task: Task): Promise<void> {
  const node = task.node;
  try {
    await task.driver.boot.validate(task);
    await doTakeover(task);
    await task.processEvent('done');
    log.info(`Successfully adopted node ${node.uuid}`);
  } catch (err) {
    const msg = `Error while attempting to adopt node ${node.uuid}: ${errorText(err)}.`;
    log.error(msg);
    node.power_state = null;
    await task.recordHistory(msg, states.HISTORY_ADOPTION, true);
    await task.processEvent('fail');
  }
}

async function doAbort(task: Task): Promise<void> {
  const node = task.node;
  if (node.provision_state === states.CLEANWAIT) {
    const step = node.clean_step ?? {};
    if (Object.keys(step).length && !step.abortable) {
      if (!step.abort_after) {
        node.clean_step = { ...step, abort_after: true };
        await task.saveNode();
      }
      return;
    }
    let lastError = 'By request, the clean operation was aborted';
    if (typeof step.step === 'string') lastError += ` during or after the completion of step "${step.step}"`;
    await task.processEvent('abort', {
      spawn: cleanAbort, errHandler: provisioningErrorHandler, lastError,
      targetState: node.target_provision_state === states.MANAGEABLE ? states.MANAGEABLE : null,
    });
    return;
  }
  if (node.provision_state === states.RESCUEWAIT) {
    const info = { ...(node.instance_info ?? {}) };
    delete info.rescue_password;
    delete info.hashed_rescue_password;
    node.instance_info = info;
    await task.processEvent('abort', { spawn: rescueAbort, errHandler: provisioningErrorHandler });
    return;
  }
  // INSPECTWAIT
  try {
    await task.driver.inspect.abort(task);
  } catch (err) {
    await task.recordHistory(`Failed to abort inspection: ${errorText(err)}`, states.HISTORY_INTROSPECTION, true);
    await task.saveNode();
    throw err;
  }
  await task.recordHistory('Inspection was aborted by request.', states.HISTORY_INTROSPECTION, true);
  await task.processEvent('abort');
}

async function cleanAbort(task: Task): Promise<void> {
  const node = task.node;
  try {
    await task.driver.deploy.tearDownCleaning(task);
  } catch (err) {
    const msg = `Failed to tear down cleaning after aborting the operation. Error: ${errorText(err)}`;
    await task.recordHistory(msg, states.HISTORY_CLEANING, true);
  }
  node.clean_step = {};
  const info = { ...(node.driver_internal_info ?? {}) };
  for (const k of ['clean_step_index', 'cleaning_reboot', 'cleaning_polling', 'skip_current_clean_step', 'agent_url']) delete info[k];
  node.driver_internal_info = info;
  await task.recordHistory(node.last_error, states.HISTORY_CLEANING, true);
  await task.saveNode();
  log.info(`Clean operation aborted for node ${node.uuid}`);
}

async function rescueAbort(task: Task): Promise<void> {
  const node = task.node;
  try {
    await nodePowerAction(task, states.POWER_OFF);
    await task.driver.rescue.cleanUp(task);
    await task.recordHistory('Rescue operation was aborted.', states.HISTORY_RESCUE, true);
  } catch (err) {
    node.maintenance = true;
    node.maintenance_reason = `Failed to abort rescue: ${errorText(err)}`;
    node.fault = states.FAULT_RESCUE_ABORT_FAILURE;
    await task.recordHistory(`Failed to clean up rescue after aborting the operation`, states.HISTORY_RESCUE, true);
  }
  await task.saveNode();
}
