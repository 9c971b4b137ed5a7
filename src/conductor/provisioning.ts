/**
 * do_provisioning_action: manage (verify from enroll), provide (automated clean), adopt, abort
 * (abort.ts), unhold, and the plain transitions (e.g. available -> manageable).
 */
import { InvalidState, InvalidStateRequested, NodeInMaintenance, NodeIsRetired } from '../common/errors';
import { log } from '../common/log';
import * as states from '../common/states';
import { ABORTABLE_STATES, doAbort } from './abort';
import { runCleaning } from './cleaning';
import { errorText, provisioningErrorHandler } from './error-handlers';
import { updateImageType } from './image-type';
import { cacheBiosSettings, cacheBootMode, cacheFirmwareComponents, cacheVendor } from './node-cache';
import { continueNodeService } from './servicing';
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
    if (action === 'abort' && ABORTABLE_STATES.includes(state ?? '')) {
      await doAbort(task);
      return;
    }
    if (action === 'unhold' && state === states.SERVICEHOLD) {
      await task.processEvent('unhold', { spawn: continueNodeService, errHandler: provisioningErrorHandler });
      return;
    }
    // unhold from clean/deploy hold only releases the node: the next agent heartbeat resumes it.
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
  await cacheBiosSettings(task);
  await cacheFirmwareComponents(task);
  await cacheVendor(task);
  await cacheBootMode(task);
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
    updateImageType(task);
    // Only an instance the node boots from the network (ramdisk and anaconda deployments; every
    // other one boots locally) needs the boot interface to be able to boot it again.
    if (['ramdisk', 'anaconda'].includes(node.deploy_interface ?? '')) await task.driver.boot.validate(task);
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
