/** Management calls: boot device, NMI, boot mode, secure boot, console, RAID target (manager.py). */
import { InvalidParameterValue, NodeConsoleNotEnabled } from '../common/errors';
import { log } from '../common/log';
import * as states from '../common/states';
import type { BootDevice, ConsoleInfo, JsonObject } from '../rpc/conductor-api';
import { errorText, spawnErrorHandler } from './error-handlers';
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

export async function changeBootMode(tasks: TaskManager, nodeId: string, mode: string): Promise<void> {
  await tasks.run(nodeId, { purpose: 'changing node boot mode' }, async (task) => {
    await task.driver.management.validate(task);
    task.node.last_error = null;
    await task.saveNode();
    task.spawnAfter(async (t) => {
      try {
        const supported = await t.driver.management.getSupportedBootModes(t);
        if (!supported.includes(mode)) throw new InvalidParameterValue(`Unsupported boot mode ${mode} specified.`);
        await t.driver.management.setBootMode(t, mode);
        t.node.boot_mode = mode;
      } catch (err) {
        await t.recordHistory(`Failed to change boot mode to '${mode}': ${errorText(err)}`, '', true);
      }
      await t.saveNode();
    }, spawnErrorHandler('changing node boot mode'));
  });
}

export async function changeSecureBoot(tasks: TaskManager, nodeId: string, enabled: boolean): Promise<void> {
  await tasks.run(nodeId, { purpose: 'changing node secure' }, async (task) => {
    await task.driver.management.validate(task);
    task.node.last_error = null;
    await task.saveNode();
    task.spawnAfter(async (t) => {
      try {
        await t.driver.management.setSecureBootState(t, enabled);
        t.node.secure_boot = enabled;
      } catch (err) {
        await t.recordHistory(`Failed to change secure boot state to '${enabled}': ${errorText(err)}`, '', true);
      }
      await t.saveNode();
    }, spawnErrorHandler('changing node secure boot'));
  });
}

export async function setConsoleMode(tasks: TaskManager, nodeId: string, enabled: boolean): Promise<void> {
  await tasks.run(nodeId, { purpose: 'setting console mode' }, async (task) => {
    await task.driver.console.validate(task);
    task.spawnAfter(async (t) => {
      try {
        if (enabled) await t.driver.console.startConsole(t);
        else await t.driver.console.stopConsole(t);
        t.node.console_enabled = enabled;
      } catch (err) {
        const op = enabled ? 'enabling' : 'disabling';
        await t.recordHistory(`Error ${op} the console on node ${t.node.uuid}. Reason: ${errorText(err)}`,
          states.HISTORY_CONSOLE, true);
        log.error(`Error ${op} the console on node ${t.node.uuid}: ${errorText(err)}`);
      }
      await t.saveNode();
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
