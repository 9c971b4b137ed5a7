/** Rescue and unrescue (manager.do_node_rescue / do_node_unrescue). */
import { InstanceRescueFailure, InvalidParameterValue, InvalidStateRequested, NodeInMaintenance } from '../common/errors';
import { log } from '../common/log';
import * as states from '../common/states';
import { errorText, provisioningErrorHandler } from './error-handlers';
import { isActionable } from './fsm';
import { hashRescuePassword } from './rescue-password';
import type { Task } from './task';
import type { TaskManager } from './task-manager';

function checkActionable(task: Task, event: string): void {
  if (task.node.maintenance) throw new NodeInMaintenance({ op: event, node: task.node.uuid });
  if (!isActionable(task.node.provision_state, event)) {
    throw new InvalidStateRequested({ action: event, node: task.node.uuid, state: task.node.provision_state });
  }
}

export async function doNodeRescue(tasks: TaskManager, nodeId: string, password: string): Promise<void> {
  await tasks.run(nodeId, { purpose: 'node rescue' }, async (task) => {
    checkActionable(task, 'rescue');
    // wipe_token_and_url: an agent from an earlier boot must not be talked to.
    const { agent_secret_token: _t, agent_secret_token_pregenerated: _p, agent_url: _u, agent_verify_ca: _c, ...internal } =
      task.node.driver_internal_info ?? {};
    task.node.driver_internal_info = internal;
    const info = { ...(task.node.instance_info ?? {}) };
    info.rescue_password = password;
    // The agent gets the crypt(3) form only ([conductor]rescue_password_hash_algorithm).
    info.hashed_rescue_password = hashRescuePassword(task.ctx.conf, password);
    task.node.instance_info = info;
    try {
      await task.driver.power.validate(task);
      await task.driver.rescue.validate(task);
      await task.driver.network.validate(task);
    } catch (err) {
      if (err instanceof InvalidParameterValue) {
        throw new InstanceRescueFailure({ instance: task.node.instance_uuid, node: task.node.uuid,
          reason: `Validation failed: ${err.message}` });
      }
      throw err;
    }
    await task.processEvent('rescue', { spawn: runRescue, errHandler: provisioningErrorHandler });
  });
}

async function runRescue(task: Task): Promise<void> {
  let next: string;
  try {
    next = await task.driver.rescue.rescue(task);
  } catch (err) {
    const error = `Failed to rescue: ${errorText(err)}`;
    log.error(`Failed to rescue node ${task.node.uuid}: ${errorText(err)}`);
    await task.recordHistory(error, states.HISTORY_RESCUE, true);
    await task.processEvent('fail');
    return;
  }
  if (next === states.RESCUEWAIT) await task.processEvent('wait');
  else if (next === states.RESCUE) await task.processEvent('done');
  else {
    await task.recordHistory(`Driver returned unexpected state ${next}`, states.HISTORY_RESCUE, true);
    await task.processEvent('fail');
  }
}

export async function doNodeUnrescue(tasks: TaskManager, nodeId: string): Promise<void> {
  await tasks.run(nodeId, { purpose: 'node unrescue' }, async (task) => {
    checkActionable(task, 'unrescue');
    try {
      await task.driver.power.validate(task);
    } catch (err) {
      if (err instanceof InvalidParameterValue) {
        throw new InstanceRescueFailure({ instance: task.node.instance_uuid, node: task.node.uuid,
          reason: `Validation failed: ${err.message}` });
      }
      throw err;
    }
    await task.processEvent('unrescue', { spawn: runUnrescue, errHandler: provisioningErrorHandler });
  });
}

async function runUnrescue(task: Task): Promise<void> {
  // The reference Ironic (21.4.4) leaves rescue_password/hashed_rescue_password in instance_info here.
  let next: string;
  try {
    next = await task.driver.rescue.unrescue(task);
  } catch (err) {
    await task.recordHistory(`Failed to unrescue: ${errorText(err)}`, states.HISTORY_RESCUE, true);
    await task.processEvent('fail');
    return;
  }
  if (next === states.ACTIVE) await task.processEvent('done');
  else {
    await task.recordHistory(`Driver returned unexpected state ${next}`, states.HISTORY_RESCUE, true);
    await task.processEvent('fail');
  }
}
