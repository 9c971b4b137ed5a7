/**
 * Power and the parent/child node link (conductor/utils.py _handle_child_power_on/_off of Ironic
 * 2025.1): powering a child on first powers its parent on, unless the child has a power supply of
 * its own (driver_info has_dedicated_power_supply); powering a parent off first powers off its
 * children that depend on it. A relative held by another task fails the action (Parent/ChildNodeLocked).
 */
import { ChildNodeLocked, NodeLocked, ParentNodeLocked } from '../common/errors';
import { log } from '../common/log';
import * as states from '../common/states';
import { childNodeIds } from '../db/repositories/nodes';
import type { PowerAction, Task } from './task';
import type { TaskManager } from './task-manager';

/** Whether powering this node on needs its parent on. */
export function needsParentPower(task: Task): boolean {
  return Boolean(task.node.parent_node) && !(task.node.driver_info ?? {}).has_dedicated_power_supply;
}

export async function powerOnParent(tasks: TaskManager, task: Task, act: PowerAction, target: string, timeout?: number):
  Promise<void> {
  const parent = await tasks.acquire(task.node.parent_node as string, { shared: true, purpose: 'power on parent node' });
  try {
    if (await parent.driver.power.getPowerState(parent) === states.POWER_ON) return;
    try {
      await tasks.upgrade(parent);
    } catch (err) {
      if (!(err instanceof NodeLocked)) throw err;
      log.error(`Cannot power on parent_node ${parent.node.uuid} as it is locked by ${parent.node.reservation}. We are ` +
        `unable to proceed with the current operation for child node ${task.node.uuid}. Error: ${err.message}`);
      throw new ParentNodeLocked({ node: task.node.uuid, parent: parent.node.uuid });
    }
    await act(parent, target, timeout);
  } finally {
    await tasks.release(parent);
  }
}

export async function powerOffChildren(tasks: TaskManager, task: Task, act: PowerAction, target: string, timeout?: number):
  Promise<void> {
  const held: Task[] = [];
  try {
    for (const id of await childNodeIds(task.ctx.db, task.node.uuid, true)) {
      const child = await tasks.acquire(id, { shared: true, purpose: 'child node power off' });
      if (await child.driver.power.getPowerState(child) === states.POWER_OFF) {
        await tasks.release(child);
        continue;
      }
      try {
        await tasks.upgrade(child);
      } catch (err) {
        await tasks.release(child);
        if (!(err instanceof NodeLocked)) throw err;
        log.error(`Cannot power off child node ${child.node.uuid} as it is locked by ${child.node.reservation}. We are ` +
          `unable to proceed with the current operation for parent node ${task.node.uuid}. Error: ${err.message}`);
        throw new ChildNodeLocked({ node: task.node.uuid, child: child.node.uuid });
      }
      held.push(child);
    }
    for (const child of held) await act(child, target, timeout);
  } finally {
    for (const child of held) await tasks.release(child);
  }
}
