/**
 * What the conductor records about a node's hardware after verifying it (utils.node_cache_*): the
 * BIOS settings, the firmware components, the vendor and the boot mode / secure boot state. Each is best effort: a driver
 * without the feature is skipped, and a failure is only logged.
 */
import { UnsupportedDriverExtension } from '../common/errors';
import { log } from '../common/log';
import { errorText } from './error-handlers';
import type { Task } from './task';

/** node_cache_bios_settings. */
export async function cacheBiosSettings(task: Task): Promise<void> {
  try {
    await task.driver.bios.cacheBiosSettings(task);
  } catch (err) {
    if (err instanceof UnsupportedDriverExtension) log.warning(`BIOS settings are not supported for node ${task.node.uuid}, skipping`);
    else log.error(`Caching of bios settings failed on node ${task.node.uuid}. ${errorText(err)}`);
  }
}

/** node_cache_firmware_components: the firmware interface validated, then asked to record the versions. */
export async function cacheFirmwareComponents(task: Task): Promise<void> {
  try {
    await task.driver.firmware.validate(task);
    await task.driver.firmware.cacheFirmwareComponents(task);
  } catch (err) {
    if (err instanceof UnsupportedDriverExtension) log.warning(`Firmware Components are not supported for node ${task.node.uuid}, skipping`);
    else log.error(`Caching of firmware components failed on node ${task.node.uuid}. ${errorText(err)}`);
  }
}

/** Called before a cache writes the node: callers holding a shared lock upgrade it there. */
type BeforeWrite = () => Promise<void>;

const nothing: BeforeWrite = async () => {};

/** node_cache_vendor: properties.vendor from the management interface, once (vendors do not change). */
export async function cacheVendor(task: Task, beforeWrite: BeforeWrite = nothing): Promise<void> {
  const properties = task.node.properties ?? {};
  const detect = task.driver.management.detectVendor;
  if (properties.vendor || !detect) return;
  let vendor: string | null;
  try {
    vendor = await detect.call(task.driver.management, task);
  } catch (err) {
    if (!(err instanceof UnsupportedDriverExtension)) {
      log.warning(`Unexpected exception when trying to detect vendor for node ${task.node.uuid}. ` +
        `${(err as Error).name}: ${errorText(err)}`);
    }
    return;
  }
  if (!vendor) return;
  await beforeWrite();
  task.node.properties = { ...(task.node.properties ?? {}), vendor };
  await task.saveNode();
}

/** One of the management interface's readings, null when the driver cannot give it; undefined on a failure. */
async function reading<T>(task: Task, what: string, read: () => Promise<T | null>): Promise<T | null | undefined> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof UnsupportedDriverExtension) return null;
    log.warning(`Unexpected exception when trying to detect ${what} for node ${task.node.uuid}. ` +
      `${(err as Error).name}: ${errorText(err)}`);
    return undefined;
  }
}

/** node_cache_boot_mode: boot_mode and secure_boot as the hardware reports them, saved when they changed. */
export async function cacheBootMode(task: Task, beforeWrite: BeforeWrite = nothing): Promise<void> {
  const management = task.driver.management;
  const bootMode = await reading(task, 'boot_mode', () => management.getBootMode(task));
  if (bootMode === undefined) return;
  const secureBoot = await reading(task, 'secure_boot state', () => management.getSecureBootState(task));
  if (secureBoot === undefined) return;
  if (bootMode === task.node.boot_mode && secureBoot === task.node.secure_boot) return;
  await beforeWrite();
  task.node.boot_mode = bootMode;
  task.node.secure_boot = secureBoot;
  await task.saveNode();
  log.info(`Updated boot_mode ${bootMode}, secure_boot ${secureBoot}for node ${task.node.uuid}`);
}
