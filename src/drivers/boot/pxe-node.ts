/**
 * What the network boot interfaces read off a node: boot mode, boot option, the deploy/rescue
 * kernel and ramdisk (pxe_utils.parse_driver_info), the instance image fields
 * (deploy_utils.get_image_instance_info) and the PXE-enabled MACs, with Ironic's messages.
 */
import { InvalidParameterValue, MissingParameterValue } from '../../common/errors';
import * as states from '../../common/states';
import { pyRepr } from '../../common/python/repr';
import type { DriverTask } from '../base';

export type RamdiskMode = 'deploy' | 'rescue';
type BootOption = 'local' | 'netboot' | 'ramdisk';

type Dict = Record<string, unknown>;

const RESCUE_LIKE = new Set<string>([states.RESCUING, states.RESCUEWAIT, states.RESCUEFAIL, states.UNRESCUING, states.UNRESCUEFAIL]);

/** deploy_utils.rescue_or_deploy_mode */
export function rescueOrDeployMode(task: DriverTask): RamdiskMode {
  return RESCUE_LIKE.has(task.node.provision_state ?? '') ? 'rescue' : 'deploy';
}

/** Capabilities are a dict or Ironic's "key:value,key:value" string. */
export function parseCapabilities(value: unknown): Record<string, string> {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    return Object.fromEntries(Object.entries(value as Dict).map(([k, v]) => [k, String(v)]));
  }
  if (typeof value !== 'string' || !value) return {};
  const out: Record<string, string> = {};
  for (const item of value.split(',')) {
    const [k, ...rest] = item.split(':');
    if (k && rest.length) out[k.trim()] = rest.join(':').trim();
  }
  return out;
}

function info(task: DriverTask, field: 'instance_info' | 'driver_info' | 'driver_internal_info' | 'properties'): Dict {
  return (task.node[field] ?? {}) as Dict;
}

/** boot_mode_utils.get_boot_mode: instance capability, node capability, then [deploy]default_boot_mode. */
export function bootModeOf(task: DriverTask): 'bios' | 'uefi' {
  const ii = info(task, 'instance_info');
  const candidates = [ii.deploy_boot_mode, parseCapabilities(ii.capabilities).boot_mode,
    parseCapabilities(info(task, 'properties').capabilities).boot_mode, task.ctx.conf.str('deploy', 'default_boot_mode')];
  for (const c of candidates) if (c === 'bios' || c === 'uefi') return c;
  return 'uefi';
}

/** utils.is_whole_disk_image: recorded at deploy time, else "no instance kernel/ramdisk given". */
function isWholeDiskImage(task: DriverTask): boolean {
  const recorded = info(task, 'driver_internal_info').is_whole_disk_image;
  if (typeof recorded === 'boolean') return recorded;
  const ii = info(task, 'instance_info');
  return !(ii.kernel || ii.ramdisk);
}

/**
 * deploy_utils.get_boot_option. ironic-ts keeps network boot for partition images (the issue's
 * deploy -> boot label switch) unless the instance asks for boot_option=local; whole-disk images
 * boot locally as in Ironic 21.4.4.
 */
export function bootOptionOf(task: DriverTask): BootOption {
  if (task.node.deploy_interface === 'ramdisk') return 'ramdisk';
  const asked = parseCapabilities(info(task, 'instance_info').capabilities).boot_option;
  if (asked === 'local' || asked === 'netboot' || asked === 'ramdisk') return asked;
  return isWholeDiskImage(task) ? 'local' : 'netboot';
}

/** driver_utils.get_node_mac_addresses: the MACs of PXE-enabled ports. */
export function pxeMacs(task: DriverTask): string[] {
  return task.ports.filter((p) => p.pxe_enabled !== false && p.address).map((p) => p.address!.toLowerCase());
}

/** deploy_utils.check_for_missing_params */
function checkForMissing(values: Record<string, unknown>, errorMsg: string): void {
  const missing = Object.entries(values).filter(([, v]) => !v).map(([k]) => k);
  if (missing.length) throw new MissingParameterValue(`${errorMsg}. Missing are: ${pyRepr(missing)}`);
}

/** pxe_utils.parse_driver_info: both from driver_info, else both from [conductor]. */
export function parseDriverInfo(task: DriverTask, mode: RamdiskMode): { kernel: string; ramdisk: string } {
  const di = info(task, 'driver_info');
  const labels = [`${mode}_kernel`, `${mode}_ramdisk`] as const;
  let values: Record<string, unknown> = Object.fromEntries(labels.map((l) => [l, di[l]]));
  if (!Object.values(values).some(Boolean)) {
    values = Object.fromEntries(labels.map((l) => [l, task.ctx.conf.optStr('conductor', l)]));
  }
  checkForMissing(values, "Cannot validate PXE bootloader. Some parameters were missing in node's driver_info and configuration");
  return { kernel: String(values[labels[0]]), ramdisk: String(values[labels[1]]) };
}

interface InstanceImageInfo {
  image_source?: string;
  kernel?: string;
  ramdisk?: string;
}

/** deploy_utils.get_image_instance_info (ramdisk boots need no image_source). */
export function instanceImageInfo(task: DriverTask, option = bootOptionOf(task)): InstanceImageInfo {
  const ii = info(task, 'instance_info');
  const values: Record<string, unknown> = {};
  if (option !== 'ramdisk') values.image_source = ii.image_source;
  if (option === 'ramdisk' || !isWholeDiskImage(task)) Object.assign(values, { kernel: ii.kernel, ramdisk: ii.ramdisk });
  checkForMissing(values, `Cannot validate image information for node ${task.node.uuid} because one or more parameters ` +
    'are missing from its instance_info and insufficent information is present to boot from a remote volume');
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)])) as InstanceImageInfo;
}

/** deploy_utils.SUPPORTED_CAPABILITIES, in Ironic's order. */
const SUPPORTED_CAPABILITIES: Array<[string, string[]]> = [
  ['boot_option', ['local', 'netboot', 'ramdisk', 'kickstart']],
  ['boot_mode', ['bios', 'uefi']],
  ['secure_boot', ['true', 'false']],
  ['disk_label', ['msdos', 'gpt']],
];

/** deploy_utils.validate_capabilities */
export function validateCapabilities(task: DriverTask): void {
  const fields: Array<[string, Record<string, string>]> = [
    ['properties/capabilities', parseCapabilities(info(task, 'properties').capabilities)],
    ["instance_info['capabilities']", parseCapabilities(info(task, 'instance_info').capabilities)],
  ];
  for (const [name, valid] of SUPPORTED_CAPABILITIES) {
    for (const [field, caps] of fields) {
      const value = caps[name];
      if (value && !valid.includes(value)) {
        throw new InvalidParameterValue(`The parameter '${name}' from ${field} has an invalid value: '${value}'. ` +
          `Acceptable values are: ${valid.join(', ')}.`);
      }
    }
  }
}
