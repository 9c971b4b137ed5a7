/**
 * SNMP power (drivers/modules/snmp.py SNMPPower): switches the PDU outlet feeding the node. Every
 * change is a SET of the outlet object, then reading its state back once a second until it
 * matches, for at most [snmp]power_timeout seconds.
 */
import { InvalidParameterValue, PowerStateFailure } from '../../common/errors';
import { log } from '../../common/log';
import * as states from '../../common/states';
import type { SnmpClient } from '../../protocols/snmp';
import type { DriverTask, PowerInterface } from '../base';
import { createSnmpClient, parseSnmpDriverInfo, snmpCall, SNMP_PROPERTIES, type SnmpDriverInfo } from './common';
import { PDU_MODELS, pduForSystemId, type PduModel } from './pdus';
import { setTimeout as sleep } from 'node:timers/promises';

/** SNMPDriverBase.retry_interval. */
const POLL_INTERVAL_MS = 1000;


/** The node's outlet: its PDU model, parsed driver_info and a client. */
interface Outlet {
  info: SnmpDriverInfo;
  model: PduModel;
  client: SnmpClient;
}

/** SNMPDriverAuto.SYS_OBJ_OID (the scalar's instance). */
const SYS_OBJECT_ID = '1.3.6.1.2.1.1.2.0';

/** SNMPDriverAuto: the model named by the agent's sysObjectID. */
async function discoverModel(info: SnmpDriverInfo, client: SnmpClient): Promise<PduModel> {
  const systemId = String(await snmpCall('GET', () => client.get(SYS_OBJECT_ID)));
  const model = PDU_MODELS.get(pduForSystemId(systemId) ?? '');
  if (!model) throw new InvalidParameterValue(`SNMPDriverAuto: no driver matching ${systemId}`);
  log.debug(`SNMP device ${info.address} reports sysObjectID ${systemId}`);
  return model;
}

/** _get_driver. */
async function outletFor(task: DriverTask): Promise<Outlet> {
  const info = parseSnmpDriverInfo(task.node);
  const client = createSnmpClient(task.ctx.conf, info);
  const model = PDU_MODELS.get(info.driver) ?? await discoverModel(info, client);
  return { info, model, client };
}

/** _snmp_power_state: the outlet's value as Ironic's state; unknown values are ERROR. */
async function readState(outlet: Outlet): Promise<string> {
  const value = await snmpCall('GET', () => outlet.client.get(outlet.model.statusOid(outlet.info.outlet)));
  if (typeof value === 'number' && outlet.model.onStates.includes(value)) return states.POWER_ON;
  if (typeof value === 'number' && outlet.model.offStates.includes(value)) return states.POWER_OFF;
  log.warning(`SNMP PDU ${outlet.info.address} outlet ${outlet.info.outlet}: unrecognised power state ${String(value)}.`);
  return states.ERROR;
}

async function write(outlet: Outlet, target: { oid: string; value: number }): Promise<void> {
  await snmpCall('SET', () => outlet.client.setInteger(target.oid, target.value));
}

/** _snmp_wait_for_state: ERROR when the goal is not read back within [snmp]power_timeout. */
async function waitForState(task: DriverTask, outlet: Outlet, goal: string): Promise<string> {
  const timeoutS = task.ctx.conf.int('snmp', 'power_timeout');
  for (let elapsedS = 0; ; ) {
    const state = await readState(outlet);
    if (state === goal) return state;
    elapsedS += POLL_INTERVAL_MS / 1000;
    if (elapsedS >= timeoutS) return states.ERROR;
    await sleep(POLL_INTERVAL_MS);
  }
}

function actionDelayMs(task: DriverTask): number {
  return task.ctx.conf.int('snmp', 'power_action_delay') * 1000;
}

async function powerOn(task: DriverTask, outlet: Outlet): Promise<string> {
  await sleep(actionDelayMs(task));
  await write(outlet, outlet.model.powerOn(outlet.info.outlet));
  return waitForState(task, outlet, states.POWER_ON);
}

async function powerOff(task: DriverTask, outlet: Outlet): Promise<string> {
  await write(outlet, outlet.model.powerOff(outlet.info.outlet));
  await sleep(actionDelayMs(task));
  return waitForState(task, outlet, states.POWER_OFF);
}

/** power_reset: off, [snmp]reboot_delay, on. */
async function powerReset(task: DriverTask, outlet: Outlet): Promise<string> {
  if (await powerOff(task, outlet) !== states.POWER_OFF) return states.ERROR;
  await sleep(task.ctx.conf.int('snmp', 'reboot_delay') * 1000);
  const result = await powerOn(task, outlet);
  return result === states.POWER_ON ? result : states.ERROR;
}

function warnTimeoutIgnored(method: string, timeout: number | undefined): void {
  if (timeout === undefined || timeout === null) return;
  log.warning(`The 'snmp' Power Interface's '${method}' method doesn't support the 'timeout' parameter. ` +
    `Ignoring timeout=${timeout}`);
}

export function createSnmpPower(): PowerInterface {
  return {
    kind: 'power', name: 'snmp', className: 'SNMPPower',
    properties: () => ({ ...SNMP_PROPERTIES }),
    async validate(task) {
      parseSnmpDriverInfo(task.node);
    },
    async getPowerState(task) {
      return readState(await outletFor(task));
    },
    async setPowerState(task, powerState, timeout) {
      warnTimeoutIgnored('set_power_state', timeout);
      const outlet = await outletFor(task);
      let state: string;
      if (powerState === states.POWER_ON) state = await powerOn(task, outlet);
      else if (powerState === states.POWER_OFF) state = await powerOff(task, outlet);
      else throw new InvalidParameterValue(`set_power_state called with invalid power state ${powerState}.`);
      if (state !== powerState) throw new PowerStateFailure({ pstate: powerState });
    },
    async reboot(task, timeout) {
      warnTimeoutIgnored('reboot', timeout);
      if (await powerReset(task, await outletFor(task)) !== states.POWER_ON) {
        throw new PowerStateFailure({ pstate: states.POWER_ON });
      }
    },
    async getSupportedPowerStates() {
      return [states.POWER_ON, states.POWER_OFF, states.REBOOT];
    },
    supportsPowerSync: () => true,
  };
}
