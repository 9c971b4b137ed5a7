/**
 * What process_next_step does for cleaning only, after the agent finished a clean step: the
 * reboot a step asked for (_post_step_reboot), and a hardware manager version change
 * (_process_version_mismatch). Deploy steps have neither in ironic-ts.
 */
import { log } from '../../common/log';
import { pyRepr } from '../../common/python/repr';
import * as states from '../../common/states';
import type { DriverTask, HeartbeatOutcome, JsonObject } from '../base';
import { agentBootOptions, manageAgentBoot } from './agent-options';
import { refreshAgentSteps } from './inband-steps';
import type { AgentClient } from './client';

/** _post_step_reboot: the step asked for a reboot; the agent comes back and the next heartbeat goes on. */
export async function postCleanStepReboot(task: DriverTask): Promise<HeartbeatOutcome> {
  const node = task.node;
  try {
    if (!(node.driver_internal_info ?? {}).cleaning_disable_ramdisk && manageAgentBoot(task)) {
      await task.driver.boot.prepareRamdisk(task, agentBootOptions(task), 'clean');
    }
    await task.powerAction(states.REBOOT);
  } catch (err) {
    return { action: 'fail-clean',
      message: `Reboot requested by clean step ${pyRepr(node.clean_step ?? {})} failed for node ${node.uuid}: ${(err as Error).message}` };
  }
  const info: JsonObject = { ...(node.driver_internal_info ?? {}), cleaning_reboot: true };
  // The rebooted agent must establish a new token (unless it was baked into the boot media).
  if (!info.agent_secret_token_pregenerated) delete info.agent_secret_token;
  node.driver_internal_info = info;
  await task.saveNode();
  return null;
}

/** _process_version_mismatch: the agent changed under us; refresh its steps and go on (manual) or restart (automated). */
export async function cleanVersionMismatch(task: DriverTask, client: AgentClient): Promise<HeartbeatOutcome> {
  const node = task.node;
  try {
    await refreshAgentSteps(task, client, 'clean');
  } catch (err) {
    return { action: 'fail-clean', message: `Could not continue cleaning on node ${node.uuid}: ${(err as Error).message}.` };
  }
  if (node.target_provision_state === states.MANAGEABLE) {
    log.info(`During manual cleaning, node ${node.uuid} detected a clean version mismatch. Re-executing and ` +
      `continuing from current step ${pyRepr(node.clean_step ?? {})}.`);
    node.driver_internal_info = { ...(node.driver_internal_info ?? {}), skip_current_clean_step: false };
    await task.saveNode();
    return { action: 'continue-clean' };
  }
  log.info(`During cleaning, node ${node.uuid} detected a clean version mismatch. Resetting clean steps and rebooting the node.`);
  return { action: 'continue-clean', resetSteps: true };
}
