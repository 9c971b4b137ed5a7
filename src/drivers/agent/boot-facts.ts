/**
 * What the agent deploy reads from a node to write and boot its image: the boot mode and boot
 * option asked in capabilities, and whether the image is a whole disk. Its own module so the image
 * helpers (glance-image.ts) and the deploy steps can both read them without importing each other.
 */
import type { DriverTask } from '../base';

/** Capabilities as a dict, from a JSON string or a "k:v,k2:v2" string (utils.parse_instance_info_capabilities). */
function capabilities(value: unknown): Record<string, unknown> {
  if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  if (typeof value !== 'string' || !value) return {};
  try {
    const parsed = JSON.parse(value) as unknown;
    if (parsed && typeof parsed === 'object') return parsed as Record<string, unknown>;
  } catch {
    // the legacy "key:value,..." form
  }
  return Object.fromEntries(value.split(',').map((kv) => kv.split(':', 2)).filter((kv) => kv.length === 2));
}

/** boot_mode_utils.get_boot_mode: instance capabilities, node capabilities, then [deploy]default_boot_mode. */
export function bootMode(task: DriverTask): string {
  const fromInstance = capabilities((task.node.instance_info ?? {}).capabilities).boot_mode;
  const fromNode = capabilities((task.node.properties ?? {}).capabilities).boot_mode;
  const mode = fromInstance ?? fromNode;
  return typeof mode === 'string' && mode ? mode : task.ctx.conf.str('deploy', 'default_boot_mode');
}

/**
 * get_boot_option, as the network boot interfaces read it (src/drivers/boot/pxe-node.ts): an
 * explicit `boot_option` capability wins; otherwise partition images network-boot through the
 * `boot_partition` label (the design; Ironic 21.4.4 would boot them locally) and whole
 * disk images boot from their disk.
 */
export function bootOption(task: DriverTask): string {
  const asked = capabilities((task.node.instance_info ?? {}).capabilities).boot_option;
  if (asked === 'local' || asked === 'netboot') return asked;
  return isWholeDiskImage(task) ? 'local' : 'netboot';
}

export const isWholeDiskImage = (task: DriverTask): boolean => (task.node.driver_internal_info ?? {}).is_whole_disk_image !== false;
