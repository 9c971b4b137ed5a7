/**
 * What process_next_step does for servicing only, after the agent finished a service step: the reboot
 * a step asked for (_post_step_reboot) and a hardware manager version change (_process_version_mismatch).
 */
import { log } from '../../common/log';
import { pyRepr } from '../../common/python/repr';
import * as states from '../../common/states';
import type { DriverTask, HeartbeatOutcome, JsonObject } from '../base';
import { agentBootOptions, manageAgentBoot } from './agent-options';
import type { AgentClient } from './client';
import { refreshAgentSteps } from './inband-steps';

/** _post_step_reboot for servicing: back into the ramdisk; the agent's next heartbeat goes on. */
export async function postServiceStepReboot(task: DriverTask): Promise<HeartbeatOutcome> {
  const node = task.node;
  try {
    if (manageAgentBoot(task)) await task.driver.boot.prepareRamdisk(task, agentBootOptions(task), 'deploy');
    await task.powerAction(states.REBOOT);
  } catch (err) {
    return { action: 'fail-service',
      message: `Reboot requested by service step ${pyRepr(node.service_step ?? {})} failed for node ${node.uuid}: ${(err as Error).message}` };
  }
  const info: JsonObject = { ...(node.driver_internal_info ?? {}), servicing_reboot: true };
  if (!info.agent_secret_token_pregenerated) delete info.agent_secret_token;
  node.driver_internal_info = info;
  await task.saveNode();
  return null;
}

/** _process_version_mismatch for servicing: the agent changed; refresh its steps and go on. */
export async function serviceVersionMismatch(task: DriverTask, client: AgentClient): Promise<HeartbeatOutcome> {
  log.info(`Node ${task.node.uuid} detected a service version mismatch. Refreshing the service steps.`);
  await refreshAgentSteps(task, client, 'service');
  return { action: 'continue-service' };
}
