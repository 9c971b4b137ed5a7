/** Management calls: boot device, NMI, boot mode, secure boot, console, RAID target (manager.py). */
import { notifyConsole } from '../notifications/events';
import { NodeConsoleNotEnabled } from '../common/errors';
import { log } from '../common/log';
import { pyRepr } from '../common/python/repr';
import * as states from '../common/states';
import type { BootDevice, ConsoleInfo, JsonObject } from '../rpc/conductor-api';
import { errorText, spawnErrorHandler } from './error-handlers';
import type { Task } from './task';
import type { TaskManager } from './task-manager';

export async function setBootDevice(tasks: TaskManager, nodeId: string, device: string, persistent: boolean): Promise<void> {
  await tasks.run(nodeId, { purpose: 'setting boot device' }, async (task) => {
    await task.driver.management.validate(task);
    await task.driver.management.setBootDevice(task, device, persistent);
  });
}

export async function getBootDevice(tasks: TaskManager, nodeId: string): Promise<BootDevice> {
  return tasks.run(nodeId, { purpose: 'getting boot device' }, async (task) => {
    await task.driver.management.validate(task);
    return task.driver.management.getBootDevice(task);
  });
}

export async function getSupportedBootDevices(tasks: TaskManager, nodeId: string): Promise<string[]> {
  return tasks.run(nodeId, { shared: true, purpose: 'getting supported boot devices' }, async (task) =>
    task.driver.management.getSupportedBootDevices(task));
}

export async function injectNmi(tasks: TaskManager, nodeId: string): Promise<void> {
  await tasks.run(nodeId, { purpose: 'inject nmi' }, async (task) => {
    await task.driver.management.validate(task);
    await task.driver.management.injectNmi(task);
  });
}

/** The driver's current value, or null when it cannot tell (utils.node_change_boot_mode ignores the failure). */
async function currentOr<T>(read: () => Promise<T | null>, what: string, node: string): Promise<T | null> {
  try {
    return await read();
  } catch (err) {
    log.warning(`Unexpected exception when trying to detect ${what} while changing ${what} for node ${node}. ` +
      `${(err as Error).name}: ${errorText(err)}`);
    return null;
  }
}

/** utils.node_change_boot_mode: nothing to do when the mode is already the target; a failure is only last_error. */
async function nodeChangeBootMode(task: Task, mode: string): Promise<void> {
  const current = await currentOr(() => task.driver.management.getBootMode(task), 'boot_mode', task.node.uuid);
  if (current !== null && current === mode) {
    log.info(`Target boot mode '${mode}', and current boot mode '${current}' are identical. No change being made ` +
      `for node ${task.node.uuid}`);
    return;
  }
  try {
    await task.driver.management.setBootMode(task, mode);
    task.node.boot_mode = mode;
  } catch (err) {
    // Ironic's message, unbalanced quote included.
    task.node.last_error = `Failed to change boot mode to '${mode}: ${errorText(err)}`;
  }
  await task.saveNode();
}

/** utils.node_change_secure_boot, the same for the secure boot state. */
async function nodeChangeSecureBoot(task: Task, enabled: boolean): Promise<void> {
  const current = await currentOr(() => task.driver.management.getSecureBootState(task), 'secure_boot', task.node.uuid);
  if (current !== null && current === enabled) {
    log.info(`Target secure_boot state '${pyRepr(enabled)}', and current secure_boot state '${pyRepr(current)}' are ` +
      `identical. No change being made for node ${task.node.uuid}`);
    return;
  }
  try {
    await task.driver.management.setSecureBootState(task, enabled);
    task.node.secure_boot = enabled;
  } catch (err) {
    task.node.last_error = `Failed to change secure_boot state to '${pyRepr(enabled)}': ${errorText(err)}`;
  }
  await task.saveNode();
}

export async function changeBootMode(tasks: TaskManager, nodeId: string, mode: string): Promise<void> {
  await tasks.run(nodeId, { purpose: 'changing node boot mode' }, async (task) => {
    await task.driver.management.validate(task);
    // A new operation: the previous error goes now, a new one may come from the worker.
    task.node.last_error = null;
    await task.saveNode();
    task.spawnAfter((t) => nodeChangeBootMode(t, mode), spawnErrorHandler('changing node boot mode'));
  });
}

export async function changeSecureBoot(tasks: TaskManager, nodeId: string, enabled: boolean): Promise<void> {
  await tasks.run(nodeId, { purpose: 'changing node secure' }, async (task) => {
    await task.driver.management.validate(task);
    task.node.last_error = null;
    await task.saveNode();
    task.spawnAfter((t) => nodeChangeSecureBoot(t, enabled), spawnErrorHandler('changing node secure boot'));
  });
}

export async function setConsoleMode(tasks: TaskManager, nodeId: string, enabled: boolean): Promise<void> {
  await tasks.run(nodeId, { purpose: 'setting console mode' }, async (task) => {
    await task.driver.console.validate(task);
    task.spawnAfter(async (t) => {
      notifyConsole(t, 'console_set', 'start');
      let failed = false;
      try {
        if (enabled) await t.driver.console.startConsole(t);
        else await t.driver.console.stopConsole(t);
        t.node.console_enabled = enabled;
      } catch (err) {
        failed = true;
        const op = enabled ? 'enabling' : 'disabling';
        await t.recordHistory(`Error ${op} the console on node ${t.node.uuid}. Reason: ${errorText(err)}`,
          states.HISTORY_CONSOLE, true);
        log.error(`Error ${op} the console on node ${t.node.uuid}: ${errorText(err)}`);
      }
      await t.saveNode();
      notifyConsole(t, 'console_set', failed ? 'error' : 'end');
    }, spawnErrorHandler('setting console mode'));
  });
}

export async function getConsoleInformation(tasks: TaskManager, nodeId: string): Promise<ConsoleInfo> {
  return tasks.run(nodeId, { shared: true, purpose: 'getting console information' }, async (task) => {
    if (!task.node.console_enabled) throw new NodeConsoleNotEnabled({ node: task.node.uuid });
    await task.driver.console.validate(task);
    return (await task.driver.console.getConsole(task)) as ConsoleInfo;
  });
}

export async function setTargetRaidConfig(tasks: TaskManager, nodeId: string, config: JsonObject): Promise<void> {
  await tasks.run(nodeId, { purpose: 'setting target RAID config' }, async (task) => {
    // An empty config unsets the target, so only a non-empty one is validated.
    if (Object.keys(config).length > 0) await task.driver.raid.validateRaidConfig(task, config);
    task.node.target_raid_config = config;
    await task.saveNode();
  });
}
