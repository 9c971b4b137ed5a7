/**
 * Heartbeats in `clean wait` (HeartbeatMixin._heartbeat_clean_wait and process_next_step for
 * cleaning): the first heartbeat after the ramdisk booted caches the agent's clean steps and
 * asks the conductor to start them; later ones read the agent's command list to learn whether
 * the in-band step finished, failed, hit a hardware manager version change, or still runs.
 */
import { log } from '../../common/log';
import { pyRepr } from '../../common/python/repr';
import * as states from '../../common/states';
import type { DriverTask, HeartbeatOutcome, JsonObject } from '../base';
import { agentBootOptions, manageAgentBoot } from './agent-options';
import { refreshCleanSteps } from './clean-steps';
import { commandErrorText, type AgentClient, type AgentCommand } from './client';

const stepId = (s: JsonObject) => `${String(s.interface)}.${String(s.step)}`;

/** _freshly_booted: nothing ran yet but the steps query (or nothing at all, after a reboot). */
function freshlyBooted(commands: AgentCommand[]): boolean {
  return commands.length === 0 || (commands.length === 1 && commands[0].command_name === 'get_clean_steps');
}

/** _get_completed_command for cleaning: the finished command of the current step, if it is done. */
function completedCommand(task: DriverTask, commands: AgentCommand[]): AgentCommand | null {
  const last = commands[commands.length - 1];
  if (last.command_name !== 'execute_clean_step' || last.command_status === 'RUNNING') return null;
  const lastStep = ((last.command_result ?? {}) as Record<string, unknown>).clean_step as JsonObject | undefined;
  const current = (task.node.clean_step ?? {}) as JsonObject;
  if (last.command_status === 'SUCCEEDED' && (!lastStep || stepId(lastStep) !== stepId(current))) return null;
  return last;
}

/** _post_step_reboot: the step asked for a reboot; the agent comes back and the next heartbeat goes on. */
async function postStepReboot(task: DriverTask): Promise<HeartbeatOutcome> {
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
async function versionMismatch(task: DriverTask, client: AgentClient): Promise<HeartbeatOutcome> {
  const node = task.node;
  try {
    await refreshCleanSteps(task, client);
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

/** process_next_step(task, 'clean'). */
export async function processNextCleanStep(task: DriverTask, client: AgentClient): Promise<HeartbeatOutcome> {
  const node = task.node;
  const commands = await client.getCommandsStatus(node);
  if (freshlyBooted(commands)) {
    const { cleaning_reboot: _r, ...rest } = node.driver_internal_info ?? {};
    node.driver_internal_info = rest;
    await task.saveNode();
    return { action: 'continue-clean' };
  }
  const command = completedCommand(task, commands);
  if (!command) return null;
  const current = (node.clean_step ?? {}) as JsonObject;
  switch (command.command_status) {
    case 'FAILED':
      return { action: 'fail-clean', message: `Clean step ${stepId(current)} failed on node ${node.uuid}. ${commandErrorText(command)}` };
    case 'CLEAN_VERSION_MISMATCH':
    case 'VERSION_MISMATCH':
      return versionMismatch(task, client);
    case 'SUCCEEDED':
      if (current.reboot_requested) return postStepReboot(task);
      log.info(`Agent on node ${node.uuid} returned clean command success, moving to next step`);
      return { action: 'continue-clean' };
    default:
      return { action: 'fail-clean',
        message: `Agent returned unknown status for clean step ${pyRepr(current)} on node ${node.uuid} : ${command.command_status}.` };
  }
}

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
      await refreshCleanSteps(task, client);
      return { action: 'start-clean', errorPrefix: msg };
    }
    msg = 'Node failed to check cleaning progress';
    if ((node.driver_internal_info ?? {}).cleaning_polling) return null;
    return await processNextCleanStep(task, client);
  } catch (err) {
    const lastError = `${msg}: ${(err as Error).message}`;
    return { action: 'fail-clean', message: `Asynchronous exception for node ${node.uuid}: ${lastError}`, errmsg: lastError };
  }
}
