/**
 * FakeManagement's indicators (drivers/modules/fake.py): a read-only chassis LED and a settable
 * system LED that always reads "on". FakeManagement has no set_indicator_state, so setting one
 * is the base interface's UnsupportedDriverExtension.
 */
import { InvalidParameterValue, UnsupportedDriverExtension } from '../../common/errors';
import type { DriverTask, ManagementInterface, SupportedIndicators } from '../base';

function allIndicators(): SupportedIndicators {
  return {
    chassis: { 'led-0': { readonly: true, states: ['off', 'on'] } },
    system: { led: { readonly: false, states: ['blinking', 'off', 'on'] } },
  };
}

type IndicatorMethods = Required<Pick<ManagementInterface,
  'getSupportedIndicators' | 'getIndicatorState' | 'setIndicatorState'>>;

export const FAKE_INDICATOR_METHODS: IndicatorMethods = {
  async getSupportedIndicators(_task: DriverTask, component?: string) {
    const all = allIndicators();
    return Object.fromEntries(Object.entries(all).filter(([c]) => !component || component === c));
  },
  async getIndicatorState(_task: DriverTask, component: string, indicator: string) {
    const all = allIndicators();
    if (!Object.hasOwn(all, component)) throw new InvalidParameterValue(`Invalid component ${component} specified.`);
    if (!Object.hasOwn(all[component], indicator)) {
      throw new InvalidParameterValue(`Invalid indicator ${indicator} specified.`);
    }
    return 'on';
  },
  async setIndicatorState(task: DriverTask) {
    throw new UnsupportedDriverExtension({ driver: task.node.driver, extension: 'set_indicator_state' });
  },
};
