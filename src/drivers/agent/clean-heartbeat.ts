/**
 * Heartbeats in `clean wait` (HeartbeatMixin._heartbeat_clean_wait): the first heartbeat after
 * the ramdisk booted caches the agent's clean steps and asks the conductor to start them; later
 * ones hand over to process_next_step (next-step.ts).
 */
import { log } from '../../common/log';
import * as states from '../../common/states';
import type { DriverTask, HeartbeatOutcome } from '../base';
import { refreshAgentSteps } from './inband-steps';
import type { AgentClient } from './client';
import { processNextStep } from './next-step';

/** _heartbeat_clean_wait. */
export async function heartbeatCleanWait(task: DriverTask, client: AgentClient): Promise<HeartbeatOutcome> {
  const node = task.node;
  let msg = 'Failed checking if cleaning is done';
  try {
    // touch_provisioning: the callback timeout counts from the last sign of life.
    node.provision_updated_at = new Date();
    await task.saveNode();
    if (!node.clean_step || Object.keys(node.clean_step).length === 0) {
      const kind = node.target_provision_state === states.MANAGEABLE ? 'manual' : 'automated';
      log.debug(`Node ${node.uuid} just booted to start ${kind} cleaning`);
      msg = 'Node failed to start the first cleaning step';
      await refreshAgentSteps(task, client, 'clean');
      return { action: 'start-clean', errorPrefix: msg };
    }
    msg = 'Node failed to check cleaning progress';
    if ((node.driver_internal_info ?? {}).cleaning_polling) return null;
    return await processNextStep(task, client, 'clean');
  } catch (err) {
    const lastError = `${msg}: ${(err as Error).message}`;
    return { action: 'fail-clean', message: `Asynchronous exception for node ${node.uuid}: ${lastError}`, errmsg: lastError };
  }
}
