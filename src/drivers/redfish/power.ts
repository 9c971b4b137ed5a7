/**
 * Redfish power (drivers/modules/redfish/power.py): ComputerSystem.PowerState read and mapped to
 * Ironic's states, changes through ComputerSystem.Reset followed by a bounded wait until the BMC
 * reports the target state.
 */
import { InvalidParameterValue } from '../../common/errors';
import * as states from '../../common/states';
import type { RedfishClient, ResetType } from '../../protocols/redfish';
import type { DriverTask, PowerInterface } from '../base';
import { restoreBootDevice } from './management';
import { waitForPowerState } from '../power-wait';
import { REDFISH_INTERFACE, connectRedfish, redfishAction } from './common';
import { lookupTable } from '../../common/own-keys';

const GET_POWER_STATE: Readonly<Record<string, string>> = lookupTable({
  On: states.POWER_ON, PoweringOn: states.POWER_ON, Off: states.POWER_OFF, PoweringOff: states.POWER_OFF,
});

const RESET_FOR: Readonly<Record<string, ResetType>> = lookupTable({
  [states.POWER_ON]: 'On',
  [states.POWER_OFF]: 'ForceOff',
  [states.REBOOT]: 'ForceRestart',
  [states.SOFT_REBOOT]: 'GracefulRestart',
  [states.SOFT_POWER_OFF]: 'GracefulShutdown',
});

const TARGET_STATE: Readonly<Record<string, string>> = lookupTable({
  [states.REBOOT]: states.POWER_ON, [states.SOFT_REBOOT]: states.POWER_ON, [states.SOFT_POWER_OFF]: states.POWER_OFF,
});

function mapPowerState(raw: string | null): string | null {
  return raw === null ? null : GET_POWER_STATE[raw] ?? null;
}

async function resetAndWait(task: DriverTask, client: RedfishClient, powerState: string, timeout?: number): Promise<void> {
  await client.reset(RESET_FOR[powerState]);
  await waitForPowerState(task, TARGET_STATE[powerState] ?? powerState, async () => mapPowerState(await client.getPowerState()), timeout);
}

/** Boot device restoration only applies when the management interface is redfish too. */
async function restoreIfRedfish(task: DriverTask, client: RedfishClient): Promise<void> {
  if (task.driver.management.name === 'redfish') await restoreBootDevice(task, client);
}

export function createRedfishPower(): PowerInterface {
  return {
    kind: 'power', className: 'RedfishPower', ...REDFISH_INTERFACE,
    async getPowerState(task) {
      const { system } = await connectRedfish(task);
      return mapPowerState(system.powerState);
    },
    async setPowerState(task, powerState, timeout) {
      if (!RESET_FOR[powerState]) {
        throw new InvalidParameterValue(`set_power_state called with an invalid power state: ${powerState}.`);
      }
      const { client } = await connectRedfish(task);
      if ([states.POWER_ON, states.SOFT_REBOOT, states.REBOOT].includes(powerState)) await restoreIfRedfish(task, client);
      await redfishAction(() => resetAndWait(task, client, powerState, timeout),
        (error) => `Setting power state to ${powerState} failed for node ${task.node.uuid}. Error: ${error}`);
    },
    async reboot(task, timeout) {
      const { client, system } = await connectRedfish(task);
      let next: string = states.POWER_ON;
      await redfishAction(async () => {
        if (mapPowerState(system.powerState) === states.POWER_ON) {
          if (task.node.disable_power_off) {
            // Never off: one ForceRestart once the boot device is restored.
            next = states.REBOOT;
          } else {
            next = states.POWER_OFF;
            await resetAndWait(task, client, next, timeout);
            next = states.POWER_ON;
          }
        }
        await restoreIfRedfish(task, client);
        await resetAndWait(task, client, next, timeout);
      }, (error) => `Reboot failed for node ${task.node.uuid} when setting power state to ${next}. Error: ${error}`);
    },
    async getSupportedPowerStates() {
      return Object.keys(RESET_FOR);
    },
    supportsPowerSync: () => true,
  };
}
