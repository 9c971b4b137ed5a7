/**
 * The hooks that learn about the node's disks (root_device.py, raid_device.py). Root device hints
 * are Ironic's, operators included (common/root-device-hints.ts).
 */
import { HardwareInspectionFailure } from '../../../common/errors';
import { log } from '../../../common/log';
import { pyRepr } from '../../../common/python/repr';
import { pyTruthy } from '../../../common/python/truthiness';
import { findDevicesByHints, matchRootDeviceHints, type Device } from '../../../common/root-device-hints';
import { PyError } from '../../../common/specs-matcher';
import * as inventoryRepo from '../../../db/repositories/inventory';
import { isNotFound } from '../../../db/errors';
import type { DriverTask, JsonObject } from '../../base';
import { setProperty, type InspectionHook } from './types';

const GIB = 1024 ** 3;

function disksOf(inventory: JsonObject): JsonObject[] {
  return Array.isArray(inventory.disks) ? inventory.disks as JsonObject[] : [];
}

function hintsObject(value: unknown): Record<string, unknown> {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  throw new PyError('TypeError', `root device hints must be a dictionary, got ${pyRepr(value)}`);
}

/** _get_skip_list_for_node: the names of the disks any skip_block_devices hint matches. */
function skipList(props: JsonObject, disks: Device[]): Set<unknown> {
  const skip = new Set<unknown>();
  const hints = Object.hasOwn(props, 'skip_block_devices') ? props.skip_block_devices : [];
  if (!pyTruthy(hints)) return skip;
  for (const hint of (Array.isArray(hints) ? hints : []) as unknown[]) {
    const fresh = [...findDevicesByHints(disks, hintsObject(hint))].map((d) => d.name).filter((n) => !skip.has(n));
    fresh.forEach((n) => skip.add(n));
    if (fresh.length) log.warning(`Using hint ${pyRepr(hint)} skipping devices: ${fresh.join(',')}`);
  }
  return skip;
}

/** _process_root_device_hints: plugin_data.root_disk from the node's hints, when it has any. */
function processRootDeviceHints(task: DriverTask, inventory: JsonObject, pluginData: JsonObject): void {
  const props = task.node.properties ?? {};
  const hints = Object.hasOwn(props, 'root_device') ? props.root_device : undefined;
  if (!pyTruthy(hints)) return;
  if (!Object.hasOwn(inventory, 'disks')) throw Object.assign(new Error("'disks'"), { name: 'KeyError' });
  const all = disksOf(inventory);
  const skipped = skipList(props, all);
  const disks = all.filter((d) => !skipped.has(d.name));
  let root: Device | null;
  try {
    root = matchRootDeviceHints(disks, hintsObject(hints));
  } catch (err) {
    if (!(err instanceof PyError) || err.pyClass === 'ParseException') throw err;
    throw new HardwareInspectionFailure({
      error: `No disks could be found using root device hints ${pyRepr(hints)} for node ${task.node.uuid} ` +
        `because they failed to validate. Error: ${err.message}`,
    });
  }
  if (!root) throw new HardwareInspectionFailure({ error: `No disks satisfied root device hints for node ${task.node.uuid}` });
  pluginData.root_disk = root as JsonObject;
}

export const rootDeviceHook: InspectionHook = {
  name: 'root-device',
  async run(task, inventory, pluginData) {
    processRootDeviceHints(task, inventory, pluginData);
    const rootDisk = pluginData.root_disk as JsonObject | undefined;
    let localGb = 0;
    if (rootDisk) {
      localGb = Math.floor(Number(rootDisk.size) / GIB) || 0;
      if (!localGb) {
        log.warning(`The requested root disk is too small (smaller than 1 GiB) or its size cannot be detected. ` +
          `Root disk: ${pyRepr(rootDisk)}, Node: ${task.node.uuid}`);
      } else if (task.ctx.conf.bool('inspector', 'disk_partitioning_spacing')) {
        localGb -= 1;
      }
    } else {
      log.info(`No root device found for node ${task.node.uuid}. Assuming node is diskless.`);
    }
    pluginData.local_gb = localGb;
    await setProperty(task, 'local_gb', String(localGb));
  },
};

function serials(inventory: JsonObject | null): string[] {
  return disksOf(inventory ?? {}).map((d) => d.serial).filter((s): s is string => typeof s === 'string' && s !== '');
}

export const raidDeviceHook: InspectionHook = {
  name: 'raid-device',
  async run(task, inventory) {
    if (Object.hasOwn(task.node.properties ?? {}, 'root_device')) return;
    const current = serials(inventory);
    if (current.length === 0) {
      log.warning(`No block device information was received from the ramdisk for node ${task.node.uuid}`);
      return;
    }
    let previous: string[];
    try {
      previous = serials((await inventoryRepo.getByNodeId(task.ctx.db, task.node.id)).inventory_data);
    } catch (err) {
      if (isNotFound(err, 'NodeInventory')) return;
      throw err;
    }
    const fresh = current.filter((s) => !previous.includes(s));
    if (fresh.length !== 1) {
      log.warning(fresh.length ? `Root device cannot be identified because multiple new devices were found for node ${task.node.uuid}`
        : `No new devices were found for node ${task.node.uuid}`);
      return;
    }
    await setProperty(task, 'root_device', { serial: fresh[0] });
  },
};
