/**
 * RedfishManagement's indicators (management.py get_supported_indicators / get_ / set_indicator_state):
 * the IndicatorLED of the system and of its chassis, each known by its UUID. Drive LEDs are not
 * offered (the client has no SimpleStorage drive model).
 */
import { MissingParameterValue, RedfishError } from '../../common/errors';
import type { RedfishObject } from '../../protocols/redfish';
import type { DriverTask, IndicatorInfo, ManagementInterface, SupportedIndicators } from '../base';
import { RedfishSession, connectRedfish, redfishAction } from './common';
import { lookupTable } from '../../common/own-keys';

const TO_IRONIC: Readonly<Record<string, string>> = lookupTable({ Lit: 'on', Off: 'off', Blinking: 'blinking', Unknown: 'unknown' });
const TO_REDFISH: Readonly<Record<string, 'Lit' | 'Off' | 'Blinking'>> = lookupTable({ on: 'Lit', off: 'Off', blinking: 'Blinking' });
const SETTABLE: IndicatorInfo = { readonly: false, states: ['blinking', 'off', 'on'] };

/** One LED: where it lives (for PATCH), its UUID and current IndicatorLED. */
interface Led {
  component: 'system' | 'chassis';
  path: string;
  uuid: string;
  state: string;
}

async function leds(session: RedfishSession): Promise<Led[]> {
  const out: Led[] = [];
  const { system, client } = session;
  if (system.uuid && system.indicatorLed) {
    out.push({ component: 'system', path: system.path, uuid: system.uuid, state: system.indicatorLed });
  }
  for (const path of system.chassisPaths) {
    const chassis: RedfishObject = await client.connection.get(path);
    if (typeof chassis.UUID === 'string' && typeof chassis.IndicatorLED === 'string') {
      out.push({ component: 'chassis', path, uuid: chassis.UUID, state: chassis.IndicatorLED });
    }
  }
  return out;
}

async function findLed(task: DriverTask, session: RedfishSession, component: string, indicator: string,
  describe: (error: string) => string): Promise<Led> {
  const all = await redfishAction(() => leds(session), describe);
  const led = all.find((l) => l.component === component && l.uuid === indicator);
  if (!led) {
    throw new MissingParameterValue(`Unknown indicator ${indicator} for component ${component} of node ${task.node.uuid}`);
  }
  return led;
}

type IndicatorMethods = Required<Pick<ManagementInterface, 'getSupportedIndicators' | 'getIndicatorState' | 'setIndicatorState'>>;

export const REDFISH_INDICATOR_METHODS: IndicatorMethods = {
  async getSupportedIndicators(task, component) {
    const session = await connectRedfish(task);
    const out: SupportedIndicators = {};
    for (const led of await redfishAction(() => leds(session), (error) => error)) {
      if (component && component !== led.component) continue;
      out[led.component] = { ...(out[led.component] ?? {}), [led.uuid]: SETTABLE };
    }
    return out;
  },
  async getIndicatorState(task, component, indicator) {
    const led = await findLed(task, await connectRedfish(task), component, indicator, (error) =>
      `Redfish get ${component} indicator ${indicator} state failed for node ${task.node.uuid}. Error: ${error}`);
    return TO_IRONIC[led.state] ?? 'unknown';
  },
  async setIndicatorState(task, component, indicator, state) {
    const describe = (error: string) =>
      `Redfish set ${component} indicator ${indicator} state ${state} failed for node ${task.node.uuid}. Error: ${error}`;
    const session = await connectRedfish(task);
    const led = await findLed(task, session, component, indicator, describe);
    const wanted = TO_REDFISH[state];
    if (!wanted) throw new RedfishError({ error: describe(`unsupported state ${state}`) });
    if (led.component === 'system') await redfishAction(() => session.client.setIndicatorLed(wanted), describe);
    else await redfishAction(() => session.client.connection.patch(led.path, { IndicatorLED: wanted }), describe);
  },
};
