/**
 * Finishing a step that needs the node rebooted into its ramdisk (async_steps.set_node_flags,
 * get_return_state and deploy_utils.reboot_to_finish_step of Ironic 2025.1): the flow's reboot, skip
 * and polling flags, the reboot itself, and the wait state the step returns.
 */
import * as states from '../../common/states';
import type { DriverTask, JsonObject } from '../base';
import { agentBootOptions } from './agent-options';
import { isFastTrack } from './fast-track';

type FlowKind = 'clean' | 'service' | 'deploy';

/** _step_type: the flow a node is in, by the step it records. */
export function currentFlow(task: DriverTask): FlowKind {
  const node = task.node;
  if (node.clean_step && Object.keys(node.clean_step).length > 0) return 'clean';
  if (node.service_step && Object.keys(node.service_step).length > 0) return 'service';
  return 'deploy';
}

const FLAGS: Readonly<Record<FlowKind, { reboot: string; skip: string; polling: string }>> = {
  clean: { reboot: 'cleaning_reboot', skip: 'skip_current_clean_step', polling: 'cleaning_polling' },
  service: { reboot: 'servicing_reboot', skip: 'skip_current_service_step', polling: 'servicing_polling' },
  deploy: { reboot: 'deployment_reboot', skip: 'skip_current_deploy_step', polling: 'deployment_polling' },
};

/** set_node_flags: a reboot drops the agent's token (unless pregenerated); polling unset is removed. */
export function setAsyncStepFlags(task: DriverTask, flags: { reboot?: boolean; skipCurrentStep?: boolean; polling?: boolean }): void {
  const names = FLAGS[currentFlow(task)];
  const info: JsonObject = { ...(task.node.driver_internal_info ?? {}) };
  if (flags.reboot !== undefined) {
    info[names.reboot] = flags.reboot;
    if (flags.reboot && !info.agent_secret_token_pregenerated) delete info.agent_secret_token;
  }
  if (flags.skipCurrentStep !== undefined) info[names.skip] = flags.skipCurrentStep;
  if (flags.polling !== undefined) info[names.polling] = flags.polling;
  else delete info[names.polling];
  task.node.driver_internal_info = info;
}

const WAIT_STATE: Readonly<Record<FlowKind, string>> = { clean: states.CLEANWAIT, service: states.SERVICEWAIT, deploy: states.DEPLOYWAIT };

/**
 * reboot_to_finish_step: unless the ramdisk is disabled, the agent's boot is prepared (a fast-tracked
 * node that may be powered off is powered off first, so it boots afresh), then the node reboots.
 */
export async function rebootToFinishStep(task: DriverTask, timeout?: number): Promise<string> {
  if (!(task.node.driver_internal_info ?? {}).cleaning_disable_ramdisk) {
    if (await isFastTrack(task) && !task.node.disable_power_off) await task.powerAction(states.POWER_OFF);
    await task.driver.boot.prepareRamdisk(task, agentBootOptions(task), 'deploy');
  }
  await task.powerAction(states.REBOOT, timeout);
  return WAIT_STATE[currentFlow(task)];
}
