/**
 * Booting the agent for in-band cleaning and taking it down afterwards
 * (deploy_utils.prepare_inband_cleaning / tear_down_inband_cleaning / agent_add_clean_params).
 */
import * as states from '../../common/states';
import type { DriverTask } from '../base';
import { agentBootOptions } from './agent-options';
import { AgentClient } from './client';
import { isFastTrack } from './fast-track';
import { refreshAgentSteps } from './inband-steps';
import { powerOnNodeIfNeeded, restorePowerStateIfNeeded } from '../network/power-for-network';

/** agent_add_clean_params: the disk erasure settings the agent reads from the node. */
async function addCleanParams(task: DriverTask): Promise<void> {
  const conf = task.ctx.conf;
  const eraseFallback = conf.bool('deploy', 'continue_if_disk_secure_erase_fails');
  task.node.driver_internal_info = {
    ...(task.node.driver_internal_info ?? {}),
    agent_erase_devices_iterations: conf.int('deploy', 'shred_random_overwrite_iterations'),
    agent_erase_devices_zeroize: conf.bool('deploy', 'shred_final_overwrite_with_zeros'),
    agent_continue_if_secure_erase_failed: eraseFallback,
    agent_continue_if_ata_erase_failed: eraseFallback,
    agent_enable_nvme_secure_erase: conf.bool('deploy', 'enable_nvme_secure_erase'),
    agent_enable_ata_secure_erase: conf.bool('deploy', 'enable_ata_secure_erase'),
    disk_erasure_concurrency: conf.int('deploy', 'disk_erasure_concurrency'),
    agent_erase_skip_read_only: conf.bool('deploy', 'erase_skip_read_only'),
  };
  await task.saveNode();
}

/**
 * Cleaning network, erase parameters, the ramdisk's boot files, then a reboot into it: the
 * agent's first heartbeat in `clean wait` starts the steps. On fast track the running agent is
 * used at once: its clean steps are fetched now and cleaning goes on without waiting (null).
 */
export async function prepareInbandCleaning(task: DriverTask, manageBoot: boolean): Promise<string | null> {
  // A fast-tracked agent is up already: its network is changed without power changes.
  const restore = await isFastTrack(task) ? null : await powerOnNodeIfNeeded(task);
  await task.driver.network.addCleaningNetwork(task);
  await restorePowerStateIfNeeded(task, restore);
  await addCleanParams(task);
  if (manageBoot) await task.driver.boot.prepareRamdisk(task, agentBootOptions(task), 'clean');
  // Checked after prepare_ramdisk, which may have powered the node off.
  if (await isFastTrack(task)) {
    await refreshAgentSteps(task, new AgentClient(task.ctx.conf), 'clean');
    return null;
  }
  // The reboot also drops the previous agent's token and URL; the new agent gets a new token at lookup.
  await task.powerAction(states.REBOOT);
  return states.CLEANWAIT;
}

/** Power off (unless cleaning failed: the node stays up for debugging), boot files and network away. */
export async function tearDownInbandCleaning(task: DriverTask, manageBoot: boolean): Promise<void> {
  // A fast-tracked node keeps its agent running for what comes next: no power action at all.
  const keepPower = task.node.fault === states.FAULT_CLEAN_FAILURE || await isFastTrack(task);
  if (!keepPower && !task.node.disable_power_off) await task.powerAction(states.POWER_OFF);
  if (manageBoot) await task.driver.boot.cleanUpRamdisk(task, 'clean');
  const restore = await powerOnNodeIfNeeded(task);
  await task.driver.network.removeCleaningNetwork(task);
  if (keepPower) return;
  // A node that may not be powered off is rebooted out of the ramdisk instead.
  if (task.node.disable_power_off) await task.powerAction(states.REBOOT);
  else await restorePowerStateIfNeeded(task, restore);
}
