/**
 * IPMI management (drivers/modules/ipmitool.py IPMIManagement): boot device through System Boot
 * Options (raw parameter 5 bytes in UEFI mode, `chassis bootdev` otherwise), boot device readback
 * with its persistence, NMI through the diagnostic interrupt. Boot mode and secure boot are not
 * IPMI features: Ironic's base class refuses them.
 */
import { InvalidParameterValue } from '../../common/errors';
import { log } from '../../common/log';
import type { Config } from '../../conf/config';
import type { NodeRecord } from '../../db/models';
import type { BootDevice } from '../../protocols/ipmi';
import { boolFromString } from '../../common/python/bool-from-string';
import type { DriverTask, ManagementInterface } from '../base';
import { IPMI_PROPERTIES, ipmiCall, parseIpmiDriverInfo } from './common';
import { UNSUPPORTED_BOOT_MODE_METHODS } from '../management/base-unsupported';
import { lookupTable } from '../../common/own-keys';

/** BOOT_DEVICE_HEXA_MAP: boot flags data 2 for each device (selector bits 5:2). */
const BOOT_DEVICE_HEX: Readonly<Record<string, number>> = lookupTable({ pxe: 0x04, disk: 0x08, cdrom: 0x14, bios: 0x18, safe: 0x0c });

function hex(n: number): string {
  return `0x${n.toString(16).padStart(2, '0')}`;
}

/** A capabilities value: "k:v,k:v" string (node properties) or an object / JSON text (instance_info). */
function capability(raw: unknown, name: string): string | null {
  let value: unknown = raw;
  if (typeof value === 'string' && value.trim().startsWith('{')) {
    try {
      value = JSON.parse(value);
    } catch {
      return null;
    }
  }
  if (typeof value === 'string') {
    const pair = value.split(',').map((kv) => kv.split(':')).find(([k]) => k === name);
    return pair && pair.length === 2 ? pair[1] : null;
  }
  if (value && typeof value === 'object') {
    const found = (value as Record<string, unknown>)[name];
    return typeof found === 'string' ? found : null;
  }
  return null;
}

/** boot_mode_utils.get_boot_mode: instance capabilities, node capabilities, else [deploy]default_boot_mode. */
function bootModeOf(node: NodeRecord, conf: Config): string {
  const instance = (node.instance_info ?? {}) as Record<string, unknown>;
  if (boolFromString(capability(instance.capabilities, 'secure_boot') ?? false)) return 'uefi';
  const mode = capability(instance.capabilities, 'boot_mode')
    ?? (typeof instance.deploy_boot_mode === 'string' ? instance.deploy_boot_mode : null)
    ?? capability((node.properties ?? {}).capabilities, 'boot_mode')
    ?? ((node.driver_internal_info ?? {}).deploy_boot_mode as string | undefined)
    ?? null;
  return (mode || conf.str('deploy', 'default_boot_mode')).toLowerCase();
}

/** _vendor_aware_boot_device_map: Supermicro in UEFI boots its disk with selector 0x24. */
function bootDeviceByte(node: NodeRecord, mode: string, device: string): number {
  const vendor = (node.properties ?? {}).vendor;
  if (device === 'disk' && mode === 'uefi' && typeof vendor === 'string' && vendor.toLowerCase() === 'supermicro') return 0x24;
  return BOOT_DEVICE_HEX[device];
}

function setInternal(task: DriverTask, changes: Record<string, unknown>): void {
  const info = { ...(task.node.driver_internal_info ?? {}) };
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) delete info[key];
    else info[key] = value;
  }
  task.node.driver_internal_info = info;
}

/** send_raw: "0x00 0x08 ..." as netfn, command and data bytes. */
export async function sendRaw(task: DriverTask, rawBytes: string): Promise<Buffer> {
  const bytes = rawBytes.trim().split(/\s+/).map((b) => Number(b));
  if (bytes.length < 2 || bytes.some((b) => !Number.isInteger(b) || b < 0 || b > 0xff)) {
    throw new InvalidParameterValue(`Invalid raw bytes: ${rawBytes}`);
  }
  const [netFn, cmd, ...data] = bytes;
  return ipmiCall(task, `raw ${rawBytes}`, (c) => c.raw(netFn, cmd, data));
}

/** [ipmi]disable_boot_timeout, overridden by driver_info/ipmi_disable_boot_timeout. */
function disableBootTimeout(task: DriverTask): boolean {
  const perNode = (task.node.driver_info ?? {}).ipmi_disable_boot_timeout;
  return perNode === undefined || perNode === null ? task.ctx.conf.bool('ipmi', 'disable_boot_timeout') : boolFromString(perNode);
}

async function setBootDevice(task: DriverTask, device: string, persistent: boolean): Promise<void> {
  if (!Object.hasOwn(BOOT_DEVICE_HEX, device)) throw new InvalidParameterValue(`Invalid boot device ${device} specified.`);
  const driverInfo = task.node.driver_info ?? {};
  if (boolFromString(driverInfo.ipmi_force_boot_device ?? false)) {
    // force_persistent_boot: Ironic re-sends the device on power on, so the BMC gets a one-time one.
    setInternal(task, persistent
      ? { is_next_boot_persistent: undefined, persistent_boot_device: device }
      : { is_next_boot_persistent: false });
    await task.saveNode();
    persistent = false;
  }
  const mode = bootModeOf(task.node, task.ctx.conf);
  if (mode === 'uefi') {
    // UEFI came after the last IPMI spec: spell out valid+EFI(+persistent) in raw bytes.
    if (disableBootTimeout(task)) await sendRaw(task, '0x00 0x08 0x03 0x08');
    const flags = persistent ? 0xe0 : 0xa0;
    await sendRaw(task, `0x00 0x08 0x05 ${hex(flags)} ${hex(bootDeviceByte(task.node, mode, device))} 0x00 0x00 0x00`);
    return;
  }
  if (!disableBootTimeout(task)) {
    log.info(`For node ${task.node.uuid}, driver_info['ipmi_disable_boot_timeout'] is set to False, so not sending ` +
      'ipmi boot-timeout-disable');
  }
  const cmd = `chassis bootdev ${device}${persistent ? ' options=persistent' : ''}`;
  await ipmiCall(task, cmd, (c) => c.setBootDevice(device as BootDevice, { persistent }));
}

async function getBootDevice(task: DriverTask): Promise<{ boot_device: string | null; persistent: boolean | null }> {
  const { node } = task;
  const internal = node.driver_internal_info ?? {};
  const info = parseIpmiDriverInfo(node);
  if (info.forceBootDevice && internal.persistent_boot_device && (internal.is_next_boot_persistent ?? true)) {
    return { boot_device: String(internal.persistent_boot_device), persistent: true };
  }
  const flags = await ipmiCall(task, 'chassis bootparam get 5', (c) => c.getBootDevice());
  return { boot_device: flags.device, persistent: flags.persistent };
}

export function createIpmitoolManagement(): ManagementInterface {
  return {
    kind: 'management', name: 'ipmitool', className: 'IPMIManagement',
    properties: () => ({ ...IPMI_PROPERTIES }),
    async validate(task) {
      parseIpmiDriverInfo(task.node);
    },
    async getSupportedBootDevices() {
      return Object.keys(BOOT_DEVICE_HEX);
    },
    setBootDevice,
    getBootDevice,
    async injectNmi(task) {
      await ipmiCall(task, 'power diag', (c) => c.diagInterrupt());
    },
    ...UNSUPPORTED_BOOT_MODE_METHODS,
  };
}
