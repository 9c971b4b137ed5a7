/**
 * The hooks that learn about the node's disks (root_device.py, raid_device.py). Root device hints
 * match by plain equality here (size in GiB, rotational as a boolean); Ironic's operator forms
 * ("<=", "<in>", "s==") are not interpreted.
 */
import { HardwareInspectionFailure } from '../../../common/errors';
import { log } from '../../../common/log';
import { pyRepr } from '../../../common/python/repr';
import { pyTruthy } from '../../../common/python/truthiness';
import * as inventoryRepo from '../../../db/repositories/inventory';
import { isNotFound } from '../../../db/errors';
import type { JsonObject } from '../../base';
import { setProperty, type InspectionHook } from './types';

const GIB = 1024 ** 3;

function matchesHint(disk: JsonObject, key: string, wanted: unknown): boolean {
  const have = disk[key];
  if (key === 'size') return typeof have === 'number' && Math.floor(have / GIB) === Number(wanted);
  if (key === 'rotational') return pyTruthy(have) === pyTruthy(wanted);
  return have !== undefined && have !== null && String(have) === String(wanted);
}

/** The first disk every hint matches (match_root_device_hints). */
function matchRootDevice(disks: JsonObject[], hints: JsonObject): JsonObject | null {
  return disks.find((disk) => Object.entries(hints).every(([key, value]) => matchesHint(disk, key, value))) ?? null;
}

function disksOf(inventory: JsonObject): JsonObject[] {
  return Array.isArray(inventory.disks) ? inventory.disks as JsonObject[] : [];
}

export const rootDeviceHook: InspectionHook = {
  name: 'root-device',
  async run(task, inventory, pluginData) {
    const props = task.node.properties ?? {};
    const hints = props.root_device as JsonObject | undefined;
    if (hints && Object.keys(hints).length) {
      const skip = Array.isArray(props.skip_block_devices) ? props.skip_block_devices as JsonObject[] : [];
      const skipped = new Set(disksOf(inventory).filter((d) => skip.some((h) => matchRootDevice([d], h))).map((d) => d.name));
      const root = matchRootDevice(disksOf(inventory).filter((d) => !skipped.has(d.name)), hints);
      if (!root) throw new HardwareInspectionFailure({ error: `No disks satisfied root device hints for node ${task.node.uuid}` });
      pluginData.root_disk = root;
    }
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
