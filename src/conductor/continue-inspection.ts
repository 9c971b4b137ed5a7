/**
 * The ramdisk's inspection data reaching the conductor (manager.continue_inspection and
 * conductor/inspection.py continue_inspection): the inspect interface processes it, the
 * inspection rules run, and the inventory is stored; then the node is `manageable` (or stays in
 * `enroll` when it was just discovered).
 */
import { NotFound, UnsupportedDriverExtension } from '../common/errors';
import { log } from '../common/log';
import * as states from '../common/states';
import * as inventoryRepo from '../db/repositories/inventory';
import type { JsonObject } from '../drivers/base';
import { errorText, provisioningErrorHandler } from './error-handlers';
import { applyRules } from './inspection-rules/engine';
import type { Task } from './task';
import type { TaskManager } from './task-manager';

/** inspect_utils.store_inspection_data, [inventory]data_backend = database (swift is not supported). */
async function storeInspectionData(task: Task, inventory: JsonObject, pluginData: JsonObject): Promise<void> {
  const backend = task.ctx.conf.str('inventory', 'data_backend');
  if (backend === 'none') {
    log.debug(`Inspection data storage is disabled, the data will not be saved for node ${task.node.uuid}`);
    return;
  }
  if (backend !== 'database') throw new Error(`[inventory]data_backend = ${backend} is not supported`);
  await inventoryRepo.create(task.ctx.db, task.node.id, inventory, pluginData);
  log.info(`Inspection data was stored in database for node ${task.node.uuid}`);
}

async function processData(task: Task, inventory: JsonObject, pluginData: JsonObject): Promise<void> {
  const inspect = task.driver.inspect;
  try {
    if (!inspect.continueInspection) {
      throw new UnsupportedDriverExtension({ driver: task.node.driver, extension: 'continue_inspection' });
    }
    const result = await inspect.continueInspection(task, inventory, pluginData);
    if (result === states.INSPECTWAIT) {
      if (task.node.provision_state === states.INSPECTING) await task.processEvent('wait');
      return;
    }
    await applyRules(task, inventory, pluginData, 'main');
    // Logs can be huge and are kept apart.
    delete pluginData.logs;
    await storeInspectionData(task, inventory, pluginData);
  } catch (err) {
    if (err instanceof UnsupportedDriverExtension) {
      log.error(`Inspect interface ${inspect.className} does not support processing inspection data for node ${task.node.uuid}`);
      throw err;
    }
    log.error(`Error when processing inspection data for node ${task.node.uuid}: ${errorText(err)}`);
    await task.recordHistory(`Failed to finish inspection: ${errorText(err)}`, states.HISTORY_INTROSPECTION, true);
    if (task.node.provision_state !== states.ENROLL) await task.processEvent('fail');
    else await task.saveNode();
    throw err;
  }
  if (task.node.provision_state !== states.ENROLL) {
    await task.processEvent('done');
    log.info(`Successfully finished inspection of node ${task.node.uuid}`);
  } else {
    log.info(`Successfully finished auto-discovery of node ${task.node.uuid}`);
  }
}

/**
 * Accepted in `inspect wait` (and `enroll` with [auto_discovery]enabled); anything else is a
 * plain NotFound, so a ramdisk learns nothing about the node. The processing runs in a worker.
 */
export async function continueInspection(tasks: TaskManager, nodeUuid: string, inventory: JsonObject,
  pluginData: JsonObject | null): Promise<void> {
  await tasks.run(nodeUuid, { purpose: 'continue inspection' }, async (task) => {
    const accepted: string[] = [states.INSPECTWAIT];
    if (task.ctx.conf.bool('auto_discovery', 'enabled')) accepted.push(states.ENROLL);
    if (!accepted.includes(task.node.provision_state ?? '')) {
      log.error(`Refusing to process inspection data for node ${task.node.uuid} in invalid state ${task.node.provision_state ?? 'None'}`);
      throw new NotFound();
    }
    const work = (t: Task): Promise<void> => processData(t, inventory, pluginData ?? {});
    if (task.node.provision_state === states.ENROLL) {
      task.spawnAfter(work, (err, t) => provisioningErrorHandler(err, t, states.ENROLL, null));
    } else {
      await task.processEvent('resume', { spawn: work, errHandler: provisioningErrorHandler });
    }
  });
}
