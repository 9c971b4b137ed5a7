/**
 * The hooks that read extra data the ramdisk collected (extra_hardware.py, accelerators.py):
 * hardware-detect's `[a, b, c, value]` records as a nested dict, and the PCI devices that are known
 * accelerators ([inspector]known_accelerators) as the node's `accelerators` property.
 */
import { readFileSync } from 'node:fs';
import { log } from '../../../common/log';
import { emptyDict } from '../../../common/own-keys';
import { pyInt } from '../../../common/python/int';
import { pyStr } from '../../../common/python/str';
import { parseYaml } from '../../../common/yaml-block';
import type { Config } from '../../../conf/config';
import type { JsonObject } from '../../base';
import { setProperty, type InspectionHook } from './types';

function validData(data: unknown, strict: boolean): data is unknown[][] {
  return Array.isArray(data) && data.every((item) => Array.isArray(item) && (!strict || item.length === 4));
}

function child(parent: JsonObject, key: unknown): JsonObject {
  const k = pyStr(key);
  if (!Object.hasOwn(parent, k)) parent[k] = emptyDict();
  return parent[k] as JsonObject;
}

export const extraHardwareHook: InspectionHook = {
  name: 'extra-hardware',
  async run(task, _inventory, pluginData) {
    if (!Object.hasOwn(pluginData, 'data')) {
      log.warning(`No extra hardware information was received from the ramdisk for node ${task.node.uuid}`);
      return;
    }
    const strict = task.ctx.conf.bool('inspector', 'extra_hardware_strict');
    const data = pluginData.data;
    if (!validData(data, strict)) {
      log.warning(`Extra hardware data was not in a recognised format, and will not be forwarded to inspection rules for node ${task.node.uuid}`);
      if (strict) delete pluginData.data;
      return;
    }
    const converted: JsonObject = emptyDict();
    for (const item of data) {
      if (item.length === 0) continue;
      // Like Ironic's setdefault chain: a short record still leaves its levels behind.
      const level1 = child(converted, item[0]);
      if (item.length < 2) continue;
      const level2 = child(level1, item[1]);
      if (item.length < 4) {
        log.warning(`Ignoring invalid extra data item ${pyStr(item)} for node ${task.node.uuid}. Error: list index out of range`);
        continue;
      }
      level2[pyStr(item[2])] = pyInt(item[3]) ?? item[3];
    }
    pluginData.extra = converted;
    delete pluginData.data;
  },
};

interface KnownDevice extends JsonObject { vendor_id: string; device_id: string }

/** The known accelerators file, checked as the hook's constructor checks it. */
function knownAccelerators(conf: Config): KnownDevice[] {
  const file = conf.optStr('inspector', 'known_accelerators');
  const data = (file ? parseYaml(readFileSync(file, 'utf8')) : null) as JsonObject | null;
  if (!data || !Object.hasOwn(data, 'pci_devices')) throw new Error('Could not find pci_devices in the configuration data.');
  const devices = data.pci_devices;
  if (!Array.isArray(devices)) throw new Error('pci_devices in the configuration file should contain a list of devices.');
  for (const dev of devices as JsonObject[]) {
    if (!dev.vendor_id || !dev.device_id) {
      throw new Error('One of the PCI devices in the configuration file is missing vendor_id or device_id.');
    }
  }
  return devices as KnownDevice[];
}

export const acceleratorsHook: InspectionHook = {
  name: 'accelerators',
  async run(task, _inventory, pluginData) {
    const known = knownAccelerators(task.ctx.conf);
    const devices = (pluginData.pci_devices ?? []) as JsonObject[];
    if (!Array.isArray(devices) || devices.length === 0) {
      log.warning(`Unable to process accelerator devices because no PCI device information was received from the ramdisk for node ${task.node.uuid}.`);
      return;
    }
    const accelerators = devices.flatMap((dev) => {
      const match = known.find((k) => k.vendor_id === dev.vendor_id && k.device_id === dev.product_id);
      return match ? [{ ...match, pci_address: dev.bus }] : [];
    });
    if (accelerators.length) await setProperty(task, 'accelerators', accelerators);
    else log.info(`No known accelerator devices found for node ${task.node.uuid}`);
  },
};
