/**
 * IPMI power (drivers/modules/ipmitool.py IPMIPower): Chassis Power status/on/off/soft through the
 * node's BMC, each change followed by a bounded wait until the BMC reports the target state.
 * With ipmi_force_boot_device the remembered boot device is sent again before every power on.
 */
import { InvalidParameterValue, UnsupportedHardwareFeature } from '../../common/errors';
import * as states from '../../common/states';
import type { IpmiPowerClient } from '../../protocols/ipmi';
import type { DriverTask, PowerInterface } from '../base';
import { IPMI_PROPERTIES, ipmiCall, parseIpmiDriverInfo } from './common';
import { waitForPowerState } from '../power-wait';

type Action = 'on' | 'off' | 'soft' | 'reset';

const RUN: Readonly<Record<Action, (c: IpmiPowerClient) => Promise<void>>> = {
  on: (c) => c.powerOn(),
  off: (c) => c.powerOff(),
  soft: (c) => c.softPowerOff(),
  reset: (c) => c.powerReset(),
};

/** _power_status: the chassis power bit as Ironic's state. */
async function powerStatus(task: DriverTask): Promise<string> {
  const state = await ipmiCall(task, 'power status', (c) => c.getPowerState());
  return state === 'on' ? states.POWER_ON : states.POWER_OFF;
}

/** _set_and_wait: the command, then the wait (soft power off defaults to soft_power_off_timeout). */
async function setAndWait(task: DriverTask, action: Action, timeout?: number): Promise<void> {
  await ipmiCall(task, `power ${action}`, RUN[action]);
  const target = action === 'on' || action === 'reset' ? states.POWER_ON : states.POWER_OFF;
  const wait = action === 'soft' ? timeout || task.ctx.conf.int('conductor', 'soft_power_off_timeout') : timeout;
  await waitForPowerState(task, target, () => powerStatus(task), wait);
}

/**
 * driver_utils.ensure_next_boot_device: with ipmi_force_boot_device, re-send the persistent boot
 * device before power on; a one-time device set since then is skipped once instead.
 */
async function ensureNextBootDevice(task: DriverTask): Promise<void> {
  if (!parseIpmiDriverInfo(task.node).forceBootDevice) return;
  const internal = { ...(task.node.driver_internal_info ?? {}) };
  if (internal.is_next_boot_persistent === false) {
    delete internal.is_next_boot_persistent;
    task.node.driver_internal_info = internal;
    await task.saveNode();
    return;
  }
  const device = internal.persistent_boot_device;
  if (typeof device !== 'string' || device === '') return;
  await task.driver.management.validate(task);
  if (task.node.provision_state === states.ADOPTING) return;
  await task.driver.management.setBootDevice(task, device, false);
}

export function createIpmitoolPower(): PowerInterface {
  return {
    kind: 'power', name: 'ipmitool', className: 'IPMIPower',
    properties: () => ({ ...IPMI_PROPERTIES }),
    async validate(task) {
      // Ironic does not touch the BMC here: validate runs often and BMCs are fragile.
      parseIpmiDriverInfo(task.node);
    },
    async getPowerState(task) {
      return powerStatus(task);
    },
    async setPowerState(task, powerState, timeout) {
      parseIpmiDriverInfo(task.node);
      if (powerState === states.POWER_ON) {
        await ensureNextBootDevice(task);
        await setAndWait(task, 'on', timeout);
      } else if (powerState === states.POWER_OFF) {
        await setAndWait(task, 'off', timeout);
      } else if (powerState === states.SOFT_POWER_OFF) {
        await setAndWait(task, 'soft', timeout);
      } else if (powerState === states.SOFT_REBOOT) {
        // ipmitool has no soft reboot that keeps the power on.
        if (task.node.disable_power_off) throw new UnsupportedHardwareFeature({ node: task.node.uuid, feature: states.SOFT_POWER_OFF });
        await setAndWait(task, 'soft', timeout);
        await ensureNextBootDevice(task);
        await setAndWait(task, 'on', timeout);
      } else {
        throw new InvalidParameterValue(`set_power_state called with invalid power state ${powerState}.`);
      }
    },
    async reboot(task, timeout) {
      if (task.node.disable_power_off) {
        // A node that may not be powered off is reset instead (Chassis Control hard reset).
        await ensureNextBootDevice(task);
        await setAndWait(task, 'reset', timeout);
        return;
      }
      // Some BMCs refuse a power off when already off.
      if (await powerStatus(task) !== states.POWER_OFF) await setAndWait(task, 'off', timeout);
      await ensureNextBootDevice(task);
      await setAndWait(task, 'on', timeout);
    },
    async getSupportedPowerStates() {
      return [states.POWER_ON, states.POWER_OFF, states.REBOOT, states.SOFT_REBOOT, states.SOFT_POWER_OFF];
    },
    supportsPowerSync: () => true,
  };
}
