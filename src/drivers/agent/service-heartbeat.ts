/**
 * Heartbeats in `service wait` (HeartbeatMixin._heartbeat_service_wait of Ironic 2025.1): the first
 * heartbeat after the service ramdisk booted caches the agent's service steps and asks the conductor to
 * start them; later ones hand over to process_next_step (next-step.ts).
 */
import { log } from '../../common/log';
import type { DriverTask, HeartbeatOutcome } from '../base';
import type { AgentClient } from './client';
import { processNextStep } from './next-step';
import { refreshAgentSteps } from './inband-steps';

/** _heartbeat_service_wait. */
export async function heartbeatServiceWait(task: DriverTask, client: AgentClient): Promise<HeartbeatOutcome> {
  const node = task.node;
  let msg = 'Failed checking if service is done';
  try {
    node.provision_updated_at = new Date();
    await task.saveNode();
    if (!node.service_step || Object.keys(node.service_step).length === 0) {
      log.debug(`Node ${node.uuid} just booted to start service`);
      msg = 'Node failed to start the first service step';
      await refreshAgentSteps(task, client, 'service');
      return { action: 'start-service', errorPrefix: msg };
    }
    msg = 'Node failed to check service progress';
    if ((node.driver_internal_info ?? {}).servicing_polling) return null;
    return await processNextStep(task, client, 'service');
  } catch (err) {
    const lastError = `${msg}: ${(err as Error).message}`;
    return { action: 'fail-service', message: `Asynchronous exception for node ${node.uuid}: ${lastError}`, errmsg: lastError };
  }
}
