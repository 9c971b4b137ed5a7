/**
 * The conductor's end of an agent rescue (HeartbeatMixin._finalize_rescue after the agent took
 * the password) and its failure path (utils.rescuing_error_handler).
 */
import { IronicError } from '../common/errors';
import { log } from '../common/log';
import * as states from '../common/states';
import { errorText } from './error-handlers';
import type { Task } from './task';
import { withPowerForNetwork } from '../drivers/network/power-for-network';

function removeAgentUrl(task: Task): void {
  const { agent_url: _url, ...info } = task.node.driver_internal_info ?? {};
  task.node.driver_internal_info = info;
}

/** rescuing_error_handler: power off, rescue clean up, history + last_error, then `fail` -> rescue failed. */
export async function rescuingErrorHandler(task: Task, msg: string, setFailState = true): Promise<void> {
  const node = task.node;
  try {
    await task.powerAction(states.POWER_OFF);
    await task.driver.rescue.cleanUp(task);
    removeAgentUrl(task);
    await task.recordHistory(msg, states.HISTORY_RESCUE, true);
  } catch (err) {
    const error = err instanceof IronicError
      ? `Rescue operation was unsuccessful, clean up failed for node: ${errorText(err)}`
      : `Rescue failed, but an unhandled exception was encountered while aborting: ${errorText(err)}`;
    log.error(`Rescue operation was unsuccessful for node ${node.uuid}: ${errorText(err)}`);
    await task.recordHistory(error, states.HISTORY_RESCUE, true);
  } finally {
    removeAgentUrl(task);
    await task.saveNode();
  }
  if (setFailState) await task.processEvent('fail');
}

/** The rescue ramdisk has the password: resume, remove the rescue boot, tenant networks back, `done` -> rescue. */
export async function finishRescue(task: Task, errorPrefix: string): Promise<void> {
  try {
    await task.processEvent('resume');
    await task.driver.rescue.cleanUp(task);
    await withPowerForNetwork(task, () => task.driver.network.configureTenantNetworks(task));
    await task.processEvent('done');
  } catch (err) {
    const lastError = `${errorPrefix}: ${errorText(err)}`;
    log.error(`Asynchronous exception for node ${task.node.uuid}: ${lastError}`);
    if ([states.RESCUING, states.RESCUEWAIT].includes(task.node.provision_state ?? '')) {
      await rescuingErrorHandler(task, lastError);
    }
  }
}
