/** Fake power: the recorded power state is the truth (drivers/modules/fake.py FakePower). */
import { InvalidParameterValue } from '../../common/errors';
import * as states from '../../common/states';
import type { DriverTask, PowerInterface } from '../base';

const SETTABLE = [states.POWER_ON, states.POWER_OFF, states.SOFT_REBOOT, states.SOFT_POWER_OFF];

export function createFakePower(): PowerInterface {
  return {
    kind: 'power', name: 'fake', className: 'FakePower',
    properties: () => ({}),
    async validate() {},
    async getPowerState(task: DriverTask) {
      return task.node.power_state;
    },
    async setPowerState(task: DriverTask, state: string) {
      if (!SETTABLE.includes(state)) {
        throw new InvalidParameterValue(`set_power_state called with an invalid power state: ${state}.`);
      }
      task.node.power_state = state;
    },
    async reboot() {},
    async getSupportedPowerStates() {
      return [states.POWER_ON, states.POWER_OFF, states.REBOOT, states.SOFT_REBOOT, states.SOFT_POWER_OFF];
    },
    supportsPowerSync: () => true,
  };
}
