/**
 * The service ramdisk of agent deploys (deploy_utils.prepare_inband_service / tear_down_inband_service
 * and AgentBaseMixin.prepare_service / tear_down_service of Ironic 2025.1): the instance's boot and
 * tenant network give way to the agent until the service steps end, then come back.
 */
import * as states from '../../common/states';
import type { DriverTask } from '../base';
import { agentBootOptions, manageAgentBoot } from './agent-options';
import type { AgentClient } from './client';
import { withPowerForNetwork } from '../network/power-for-network';

/** driver_utils.power_off_and_on: off before and on after, or one reboot at the end for disable_power_off. */
async function powerOffAndOn(task: DriverTask, work: () => Promise<void>): Promise<void> {
  if (!task.node.disable_power_off) await task.powerAction(states.POWER_OFF);
  await work();
  await task.powerAction(task.node.disable_power_off ? states.REBOOT : states.POWER_ON);
}

/** prepare_inband_service: boots the agent ramdisk in place of the instance; the agent's heartbeat goes on. */
export async function prepareInbandService(task: DriverTask): Promise<string> {
  await powerOffAndOn(task, async () => {
    // As Ironic: the recorded state stays "on" so that power sync does not turn a serviced instance off.
    task.node.power_state = states.POWER_ON;
    await task.saveNode();
    await task.driver.boot.cleanUpInstance(task);
    await withPowerForNetwork(task, async () => {
      await task.driver.network.unconfigureTenantNetworks(task);
      await task.driver.network.addServicingNetwork?.(task);
    });
    if (manageAgentBoot(task)) await task.driver.boot.prepareRamdisk(task, agentBootOptions(task), 'deploy');
  });
  return states.SERVICEWAIT;
}

/**
 * tear_down_service: a node that may not be powered off locks its agent down first; then the ramdisk
 * goes and, unless servicing failed (the node stays in the ramdisk for debugging), the instance boots again.
 */
export async function tearDownInbandService(task: DriverTask, client: AgentClient): Promise<void> {
  const node = task.node;
  if (node.disable_power_off) await client.lockdown(node, false);
  const failed = node.fault === states.FAULT_SERVICE_FAILURE;
  if (!failed && !node.disable_power_off) await task.powerAction(states.POWER_OFF);
  await task.driver.boot.cleanUpRamdisk(task, 'deploy');
  if (failed) return;
  await withPowerForNetwork(task, async () => {
    await task.driver.network.removeServicingNetwork?.(task);
    await task.driver.network.configureTenantNetworks(task);
  });
  await task.driver.boot.prepareInstance(task);
  await task.powerAction(node.disable_power_off ? states.REBOOT : states.POWER_ON);
}
