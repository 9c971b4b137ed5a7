/**
 * Redfish management (drivers/modules/redfish/management.py): boot device and frequency through
 * BootSourceOverride*, boot mode, secure boot, NMI. When a BMC refuses a persistent boot device
 * the one-time override is used and re-applied before every power on (redfish_boot_device).
 * Indicators and virtual media live in indicators.ts and virtual-media.ts.
 */
import { InvalidParameterValue, RedfishError, UnsupportedDriverExtension } from '../../common/errors';
import { log } from '../../common/log';
import { pyRepr } from '../../common/python/repr';
import * as redfish from '../../protocols/redfish';
import type { DriverTask, ManagementInterface } from '../base';
import {
  REDFISH_INTERFACE, connectRedfish, describeRedfishFailure, redfishAction,
} from './common';
import { REDFISH_INDICATOR_METHODS } from './indicators';
import { REDFISH_VMEDIA_METHODS } from './virtual-media';
import { lookupTable } from '../../common/own-keys';

const BOOT_DEVICE: Readonly<Record<string, string>> = lookupTable({ Pxe: 'pxe', Hdd: 'disk', Cd: 'cdrom', BiosSetup: 'bios' });
const BOOT_DEVICE_REV: Readonly<Record<string, string>> = lookupTable({ pxe: 'Pxe', disk: 'Hdd', cdrom: 'Cd', bios: 'BiosSetup' });
/** Older nodes recorded Redfish names in redfish_boot_device (BOOT_DEVICE_MAP_REV_COMPAT). */
const BOOT_DEVICE_COMPAT: Readonly<Record<string, string>> = lookupTable({ ...BOOT_DEVICE_REV, hdd: 'Hdd', cd: 'Cd', 'bios setup': 'BiosSetup' });
const BOOT_MODE: Readonly<Record<string, string>> = lookupTable({ UEFI: 'uefi', Legacy: 'bios' });
const BOOT_MODE_REV: Readonly<Record<string, redfish.BootMode>> = lookupTable({ uefi: 'UEFI', bios: 'Legacy' });
const PERSISTENT: Readonly<Record<string, boolean>> = lookupTable({ Continuous: true, Once: false });

function isSupermicro(task: DriverTask): boolean {
  const vendor = (task.node.properties ?? {}).vendor;
  return typeof vendor === 'string' && vendor.toLowerCase() === 'supermicro';
}

function setInternal(task: DriverTask, key: string, value: unknown): void {
  const info = { ...(task.node.driver_internal_info ?? {}) };
  if (value === undefined) delete info[key];
  else info[key] = value;
  task.node.driver_internal_info = info;
}

/**
 * _set_boot_device: the frequency is only sent when it changes (some BMCs reject a no-op), except
 * on Supermicro which wants it every time. A refused Continuous falls back to Once + restoration.
 */
async function applyBootDevice(task: DriverTask, client: redfish.RedfishClient, target: string, persistent: boolean): Promise<void> {
  const desired: redfish.BootOverrideEnabled = persistent ? 'Continuous' : 'Once';
  const current = (await client.getSystem()).boot.enabled;
  const enabled = isSupermicro(task) || desired !== current ? desired : undefined;
  try {
    await client.setBootOverride({ target, enabled });
  } catch (err) {
    if (enabled !== 'Continuous' || !(err instanceof redfish.RedfishError)) throw err;
    log.warning(`Could not set persistent boot device to ${target} for node ${task.node.uuid}, using one-time boot device ` +
      `instead: ${err.message}`);
    await client.setBootOverride({ target, enabled: 'Once' });
    setInternal(task, 'redfish_boot_device', BOOT_DEVICE[target]);
    await task.saveNode();
  }
}

/** restore_boot_device: re-applies a one-time boot device standing in for a persistent one. */
export async function restoreBootDevice(task: DriverTask, client: redfish.RedfishClient): Promise<void> {
  const device = (task.node.driver_internal_info ?? {}).redfish_boot_device;
  if (typeof device !== 'string' || device === '') return;
  const target = BOOT_DEVICE_COMPAT[device.toLowerCase()];
  if (!target) throw new RedfishError({ error: `unexpected redfish_boot_device ${device} for node ${task.node.uuid}` });
  try {
    await applyBootDevice(task, client, target, false);
  } catch (err) {
    if (!(err instanceof redfish.RedfishError)) throw err;
    log.warning(`Unable to recover boot device ${device} for node ${task.node.uuid}, relying on the pre-configured ` +
      `boot order. Error: ${err.message}`);
  }
}

export function createRedfishManagement(): ManagementInterface {
  return {
    kind: 'management', className: 'RedfishManagement', ...REDFISH_INTERFACE,
    async getSupportedBootDevices() {
      return Object.keys(BOOT_DEVICE_REV);
    },
    async setBootDevice(task, device, persistent) {
      const target = BOOT_DEVICE_REV[device];
      if (!target) throw new InvalidParameterValue(`Invalid boot device ${device} specified.`);
      setInternal(task, 'redfish_boot_device', undefined);
      await task.saveNode();
      const { client } = await connectRedfish(task);
      await redfishAction(() => applyBootDevice(task, client, target, persistent),
        (error) => `Redfish set boot device failed for node ${task.node.uuid}. Error: ${error}`);
    },
    async getBootDevice(task) {
      const { boot } = (await connectRedfish(task)).system;
      return {
        boot_device: boot.target === null ? null : BOOT_DEVICE[boot.target] ?? null,
        persistent: boot.enabled === null ? null : PERSISTENT[boot.enabled] ?? null,
      };
    },
    async injectNmi(task) {
      const { client } = await connectRedfish(task);
      await redfishAction(() => client.reset('Nmi'),
        (error) => `Redfish inject NMI failed for node ${task.node.uuid}. Error: ${error}`);
    },
    async getSupportedBootModes() {
      return Object.keys(BOOT_MODE_REV);
    },
    async getBootMode(task) {
      const { mode } = (await connectRedfish(task)).system.boot;
      return mode === null ? null : BOOT_MODE[mode] ?? null;
    },
    async setBootMode(task, mode) {
      const wanted = BOOT_MODE_REV[mode];
      if (!wanted) throw new InvalidParameterValue(`Unsupported boot mode ${mode} specified.`);
      const { client, system } = await connectRedfish(task);
      try {
        await client.setBootOverride({ mode: wanted });
      } catch (err) {
        if (!(err instanceof redfish.RedfishError)) throw err;
        // Some BMCs (HPE Gen9) have no boot mode at all: say so, so a deploy can carry on.
        if (system.boot.mode === null) throw new UnsupportedDriverExtension({ driver: task.node.driver, extension: 'set_boot_mode' });
        throw new RedfishError({ error: `Setting boot mode to ${mode} failed for node ${task.node.uuid}. Error: ${describeRedfishFailure(err)}` });
      }
    },
    async detectVendor(task) {
      return (await connectRedfish(task)).system.manufacturer;
    },
    async getSecureBootState(task) {
      const { client } = await connectRedfish(task);
      return (await secureBootOf(task, client, 'get_secure_boot_state')).enabled;
    },
    async setSecureBootState(task, enabled) {
      const { client, system } = await connectRedfish(task);
      const current = await secureBootOf(task, client, 'set_secure_boot_state');
      if (current.enabled === enabled) return;
      if (system.boot.mode === 'Legacy') {
        throw new RedfishError({ error: `Configuring secure boot requires UEFI for node ${task.node.uuid}` });
      }
      await redfishAction(() => client.setSecureBoot(enabled),
        (error) => `Failed to set secure boot state on node ${task.node.uuid} to ${pyRepr(enabled)}: ${error}`);
    },
    ...REDFISH_INDICATOR_METHODS,
    ...REDFISH_VMEDIA_METHODS,
  };
}

/** The SecureBoot resource, or UnsupportedDriverExtension when the BMC has none. */
async function secureBootOf(task: DriverTask, client: redfish.RedfishClient, extension: string): Promise<redfish.SecureBootInfo> {
  try {
    return await client.getSecureBoot();
  } catch (err) {
    if (err instanceof redfish.RedfishUnsupportedError) {
      throw new UnsupportedDriverExtension({ driver: task.node.driver, extension });
    }
    if (err instanceof redfish.RedfishError) throw new RedfishError({ error: describeRedfishFailure(err) });
    throw err;
  }
}
