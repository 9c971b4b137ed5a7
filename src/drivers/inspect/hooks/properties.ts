/**
 * The hooks that set node properties from the inventory (architecture.py, memory.py,
 * cpu_capabilities.py, boot_mode.py, pci_devices.py).
 */
import { InvalidNodeInventory } from '../../../common/errors';
import { log } from '../../../common/log';
import { pythonJsonLoads } from '../../../common/python/json-loads';
import { pyStr } from '../../../common/python/str';
import type { DriverTask, JsonObject } from '../../base';
import { updatedCapabilities } from './capabilities';
import { dictAt, setProperty, type InspectionHook } from './types';

/** inventory[section][key], or an InvalidNodeInventory naming what was there. */
function required(task: DriverTask, inventory: JsonObject, section: string, key: string, what: string): unknown {
  const part = Object.hasOwn(inventory, section) ? inventory[section] : undefined;
  const value = part !== null && typeof part === 'object' && !Array.isArray(part) && Object.hasOwn(part, key)
    ? (part as JsonObject)[key] : undefined;
  if (value === undefined) {
    const msg = `Inventory has ${what} information: ${part === undefined ? 'None' : pyStr(part)} for node ${task.node.uuid}.`;
    log.error(msg);
    throw new InvalidNodeInventory({ node: task.node.uuid, reason: msg });
  }
  return value;
}

export const architectureHook: InspectionHook = {
  name: 'architecture',
  async run(task, inventory) {
    const arch = required(task, inventory, 'cpu', 'architecture', 'malformed or missing CPU architecture');
    log.info(`Discovered CPU architecture: ${pyStr(arch)} for node: ${task.node.uuid}`);
    await setProperty(task, 'cpu_arch', arch);
  },
};

export const memoryHook: InspectionHook = {
  name: 'memory',
  async run(task, inventory) {
    const memory = required(task, inventory, 'memory', 'physical_mb', 'missing memory');
    log.info(`Discovered memory: ${pyStr(memory)} for node ${task.node.uuid}`);
    await setProperty(task, 'memory_mb', memory);
  },
};

async function mergeCapabilities(task: DriverTask, updates: Record<string, string | number>): Promise<void> {
  const current = (task.node.properties ?? {}).capabilities;
  await setProperty(task, 'capabilities', updatedCapabilities(current, updates));
}

export const cpuCapabilitiesHook: InspectionHook = {
  name: 'cpu-capabilities',
  async run(task, inventory) {
    const flags = dictAt(inventory, 'cpu').flags;
    if (!Array.isArray(flags) || flags.length === 0) {
      log.warning(`No CPU flags available for node ${task.node.uuid}.`);
      return;
    }
    const present = new Set(flags);
    const caps: Record<string, string> = {};
    for (const [flag, name] of Object.entries(task.ctx.conf.raw('inspector', 'cpu_capabilities') as Record<string, string>)) {
      if (present.has(flag)) caps[name] = 'true';
    }
    await mergeCapabilities(task, caps);
  },
};

export const bootModeHook: InspectionHook = {
  name: 'boot-mode',
  async run(task, inventory) {
    const mode = dictAt(inventory, 'boot').current_boot_mode;
    if (mode === undefined || mode === null) {
      log.warning(`No boot mode information available for node ${task.node.uuid}`);
      return;
    }
    await mergeCapabilities(task, { boot_mode: pyStr(mode) });
  },
};

/** [inspector]pci_device_alias entries by "vendor_id/product_id"; malformed ones are skipped. */
function pciAliases(task: DriverTask): Map<string, string> {
  const aliases = new Map<string, string>();
  for (const entry of task.ctx.conf.list('inspector', 'pci_device_alias')) {
    try {
      const parsed = pythonJsonLoads(entry) as JsonObject;
      const keys = Object.keys(parsed).sort().join(',');
      if (keys !== 'name,product_id,vendor_id') throw new Error('keys');
      aliases.set(`${pyStr(parsed.vendor_id)}/${pyStr(parsed.product_id)}`, pyStr(parsed.name));
    } catch {
      log.error(`The PCI alias entry ${entry} is invalid and will be ignored`);
    }
  }
  return aliases;
}

export const pciDevicesHook: InspectionHook = {
  name: 'pci-devices',
  async run(task, _inventory, pluginData) {
    if (!Object.hasOwn(pluginData, 'pci_devices')) return;
    const aliases = pciAliases(task);
    const counts: Record<string, number> = {};
    for (const dev of (pluginData.pci_devices ?? []) as JsonObject[]) {
      const alias = aliases.get(`${pyStr(dev.vendor_id)}/${pyStr(dev.product_id)}`);
      if (alias !== undefined) counts[alias] = (counts[alias] ?? 0) + 1;
    }
    if (Object.keys(counts).length) await mergeCapabilities(task, counts);
  },
};
