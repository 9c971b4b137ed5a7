/**
 * The `agent` rescue interface (agent.py AgentRescue): rescue powers the node off, takes the
 * instance's boot away, boots the agent ramdisk in rescue mode and waits (`rescue wait`); the
 * deploy interface's heartbeat hands the agent the hashed rescue password and finishes the
 * rescue. Unrescue cleans the rescue boot away and boots the instance again.
 */
import { InvalidParameterValue, MissingParameterValue } from '../../common/errors';
import * as states from '../../common/states';
import type { DriverTask, RescueInterface } from '../base';
import { agentBootOptions, manageAgentBoot } from '../agent/agent-options';
import { withPowerForNetwork } from '../network/power-for-network';

/**
 * Ironic shows the node as powered on for the whole operation: a power sync seeing it off
 * would otherwise switch the rescued (or returning) instance off.
 */
async function powerOffButReportOn(task: DriverTask): Promise<void> {
  if (!task.node.disable_power_off) await task.powerAction(states.POWER_OFF);
  task.node.power_state = states.POWER_ON;
  await task.saveNode();
}

/** driver_utils.power_off_and_on's end: power on, or one reboot for a node that was never powered off. */
async function powerOnOrReboot(task: DriverTask): Promise<void> {
  await task.powerAction(task.node.disable_power_off ? states.REBOOT : states.POWER_ON);
}

/** remove_node_rescue_password. */
async function removeRescuePassword(task: DriverTask): Promise<void> {
  const { rescue_password: _p, hashed_rescue_password: _h, ...info } = task.node.instance_info ?? {};
  task.node.instance_info = info;
  await task.saveNode();
}

function validatePassword(task: DriverTask): void {
  const node = task.node;
  const password = (node.instance_info ?? {}).rescue_password;
  if (password === undefined || password === null) {
    throw new MissingParameterValue(`Node ${node.uuid} is missing 'instance_info/rescue_password'. It is required for rescuing node.`);
  }
  if (!String(password).trim()) {
    throw new InvalidParameterValue(`The 'instance_info/rescue_password' is an empty string for node ${node.uuid}. ` +
      "The 'rescue_password' must be a non-empty string value.");
  }
}

export function createAgentRescue(): RescueInterface {
  const cleanUp = async (task: DriverTask): Promise<void> => {
    await removeRescuePassword(task);
    if (manageAgentBoot(task)) await task.driver.boot.cleanUpRamdisk(task, 'rescue');
    await withPowerForNetwork(task, async () => {
      await task.driver.network.removeRescuingNetwork?.(task);
    });
  };
  return {
    kind: 'rescue', name: 'agent', className: 'AgentRescue',
    properties: () => ({}),
    async validate(task) {
      await task.driver.network.validateRescue?.(task);
      if (manageAgentBoot(task)) await task.driver.boot.validate(task);
      validatePassword(task);
    },
    async rescue(task) {
      await powerOffButReportOn(task);
      await task.driver.boot.cleanUpInstance(task);
      await withPowerForNetwork(task, async () => {
        await task.driver.network.unconfigureTenantNetworks(task);
        await task.driver.network.addRescuingNetwork?.(task);
      });
      if (manageAgentBoot(task)) await task.driver.boot.prepareRamdisk(task, agentBootOptions(task), 'rescue');
      await powerOnOrReboot(task);
      return states.RESCUEWAIT;
    },
    async unrescue(task) {
      await powerOffButReportOn(task);
      await cleanUp(task);
      await withPowerForNetwork(task, () => task.driver.network.configureTenantNetworks(task));
      await task.driver.boot.prepareInstance(task);
      await powerOnOrReboot(task);
      return states.ACTIVE;
    },
    cleanUp,
  };
}
