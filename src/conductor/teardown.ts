/**
 * Tear down (manager._do_node_tear_down): deploy clean-up, instance data removed, then `clean`
 * into cleaning, which ends in available (automated cleaning may run no steps at all).
 */
import { InvalidStateRequested, NetworkError, NodeProtected, VifNotAttached } from '../common/errors';
import { log } from '../common/log';
import * as allocationsRepo from '../db/repositories/allocations';
import * as states from '../common/states';
import { runCleaning } from './cleaning';
import { errorText, provisioningErrorHandler, wipeDeployInternalInfo } from './error-handlers';
import { isActionable } from './fsm';
import type { Task } from './task';
import type { TaskManager } from './task-manager';

export async function doNodeTearDown(tasks: TaskManager, nodeId: string): Promise<void> {
  await tasks.run(nodeId, { purpose: 'node tear down' }, async (task) => {
    if (task.node.protected) throw new NodeProtected({ node: task.node.uuid });
    if (!isActionable(task.node.provision_state, 'delete')) {
      throw new InvalidStateRequested({ action: 'delete', node: task.node.uuid, state: task.node.provision_state });
    }
    await task.driver.power.validate(task);
    await task.processEvent('delete', { spawn: (t) => runTearDown(t), errHandler: provisioningErrorHandler });
  });
}

async function runTearDown(task: Task): Promise<void> {
  if (!await tearDownInstance(task)) return;
  await task.processEvent('clean');
  await runCleaning(task, null);
}

/**
 * The instance goes (_do_node_tear_down up to cleaning): console, deploy clean-up and tear down;
 * then, whether those worked or not (Ironic's `finally`), the instance data, the VIFs and the
 * allocation. False when the tear down failed (the node is then in `error`).
 */
export async function tearDownInstance(task: Task): Promise<boolean> {
  const node = task.node;
  let failed = false;
  try {
    if (node.console_enabled) {
      // Ironic keeps console_enabled so the console comes back with the next deployment; a failure
      // to stop it fails the tear down.
      await task.driver.console.stopConsole(task);
    }
    await task.driver.deploy.cleanUp(task);
    await task.driver.deploy.tearDown(task);
  } catch (err) {
    log.error(`Error in tear_down of node ${node.uuid}: ${errorText(err)}`);
    await task.recordHistory(`Failed to tear down: ${errorText(err)}`, states.HISTORY_UNPROVISION, true);
    await task.processEvent('fail');
    failed = true;
  }
  if (!failed) log.info(`Successfully unprovisioned node ${node.uuid} with instance ${node.instance_uuid}.`);
  await forgetInstance(task);
  return !failed;
}

/** The `finally` of _do_node_tear_down: instance fields and deploy records wiped, VIFs and allocation gone. */
async function forgetInstance(task: Task): Promise<void> {
  const node = task.node;
  const info = { ...(node.driver_internal_info ?? {}) };
  for (const k of ['instance', 'root_uuid_or_disk_id', 'is_whole_disk_image', 'is_source_a_path', 'deploy_boot_mode']) delete info[k];
  node.driver_internal_info = info;
  wipeDeployInternalInfo(task);
  node.instance_info = {};
  node.instance_uuid = null;
  node.instance_name = null;
  await removeVifsFromNode(task);
  await task.saveNode();
  await destroyAllocation(task);
}

/**
 * network.remove_vifs_from_node (in _do_node_tear_down's finally): the instance's VIFs are
 * detached, so Nova's destroy, which leaves that to Ironic's tear down, finds them gone.
 */
async function removeVifsFromNode(task: Task): Promise<void> {
  for (const { id } of await task.driver.network.vifList(task)) {
    try {
      await task.driver.network.vifDetach(task, id);
    } catch (err) {
      if (err instanceof VifNotAttached) {
        log.warning(`While removing records of VIF attachments from node ${task.node.uuid}, we received indication that VIF ${id} ` +
          'is no longer attached. This should not happen under normal circumstances.');
      } else if (err instanceof NetworkError) {
        log.error(`For node ${task.node.uuid}, an error occurred while removing a VIF record for VIF ${id}. Error: ${err.message}`);
      } else {
        throw err;
      }
    }
  }
}

/** The instance's allocation goes with it: the API then answers 404 for it and the node has none. */
async function destroyAllocation(task: Task): Promise<void> {
  if (task.node.allocation_id === null || task.node.allocation_id === undefined) return;
  await allocationsRepo.destroy(task.ctx.db, task.node.allocation_id);
  task.node.allocation_id = null;
  task.node.instance_uuid = null;
}
