/**
 * conductor/utils.py power_on_node_if_needed / restore_power_state_if_needed /
 * power_state_for_network_configuration: a Smart NIC is powered by its host, so before the network
 * of a node with one changes (network interface need_power_on) a powered-off node is switched on,
 * to its BIOS so that nothing boots, and once the change is made it goes back to its old state.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { neutronClient } from '../../common/neutron/client';
import { isSmartnicPort, smartnicHostname, waitForHostAgent } from '../../common/neutron/smartnic';
import { boolFromString } from '../../common/python/bool-from-string';
import * as states from '../../common/states';
import type { DriverTask } from '../base';

/** boot_devices.BIOS. */
const BOOT_DEVICE_BIOS = 'bios';

/** manager_utils.node_set_boot_device: validated, skipped while adopting, driver_info's force_persistent_boot_device honoured. */
async function nodeSetBootDevice(task: DriverTask, device: string, persistent: boolean): Promise<void> {
  await task.driver.management.validate(task);
  if (task.node.provision_state === states.ADOPTING) return;
  const force = (task.node.driver_info ?? {}).force_persistent_boot_device;
  let effective = persistent;
  if (force === 'Always') effective = true;
  else if (force === 'Never') effective = false;
  else if (force !== undefined && force !== null && force !== 'Default' && boolFromString(force)) effective = true;
  await task.driver.management.setBootDevice(task, device, effective);
}

/**
 * power_on_node_if_needed: the previous power state when the node was switched on, else null. On
 * power-on the Smart NIC restarts with its host: Ironic waits for its agent to be seen down.
 */
export async function powerOnNodeIfNeeded(task: DriverTask): Promise<string | null> {
  if (!task.driver.network.needPowerOn?.(task)) return null;
  const previous = await task.driver.power.getPowerState(task);
  if (previous !== states.POWER_OFF) return null;
  await nodeSetBootDevice(task, BOOT_DEVICE_BIOS, false);
  await task.powerAction(states.POWER_ON);
  const smartnic = task.ports.find(isSmartnicPort);
  if (smartnic) {
    const host = smartnicHostname(smartnic);
    await waitForHostAgent(neutronClient(task.ctx.conf), task.ctx.conf, host, 'down');
  }
  return previous;
}

/**
 * restore_power_state_if_needed: after twice [agent]neutron_agent_poll_interval, so that the
 * Smart NIC's agent has applied the change, the node goes back to `previous`.
 */
export async function restorePowerStateIfNeeded(task: DriverTask, previous: string | null): Promise<void> {
  if (!previous) return;
  await sleep(task.ctx.conf.int('agent', 'neutron_agent_poll_interval') * 2 * 1000);
  await task.powerAction(previous);
}

/**
 * power_state_for_network_configuration: `change` between the two. As in Ironic (a generator
 * context manager without try/finally), a change that fails leaves the node powered on.
 */
export async function withPowerForNetwork(task: DriverTask, change: () => Promise<void>): Promise<void> {
  const previous = await powerOnNodeIfNeeded(task);
  await change();
  await restorePowerStateIfNeeded(task, previous);
}
