/**
 * Indicator (LED) calls (manager.py get_supported_indicators / get_indicator_state /
 * set_indicator_state): listing takes a shared lock; reading and setting take the node
 * exclusively and validate the management interface first, as Ironic does.
 */
import { UnsupportedDriverExtension } from '../common/errors';
import type { SupportedIndicators } from '../drivers/base';
import type { Task } from './task';
import type { TaskManager } from './task-manager';

function unsupported(task: Task, extension: string): never {
  throw new UnsupportedDriverExtension({ driver: task.node.driver, extension });
}

export async function getSupportedIndicators(tasks: TaskManager, nodeId: string, component?: string):
  Promise<SupportedIndicators> {
  return tasks.run(nodeId, { shared: true, purpose: 'getting supported indicators' }, async (task) => {
    const mgmt = task.driver.management;
    if (!mgmt.getSupportedIndicators) return unsupported(task, 'get_supported_indicators');
    return mgmt.getSupportedIndicators(task, component);
  });
}

export async function getIndicatorState(tasks: TaskManager, nodeId: string, component: string, indicator: string):
  Promise<string> {
  return tasks.run(nodeId, { purpose: 'getting indicators states' }, async (task) => {
    const mgmt = task.driver.management;
    await mgmt.validate(task);
    if (!mgmt.getIndicatorState) return unsupported(task, 'get_indicator_state');
    return mgmt.getIndicatorState(task, component, indicator);
  });
}

export async function setIndicatorState(tasks: TaskManager, nodeId: string, component: string, indicator: string,
  state: string): Promise<void> {
  await tasks.run(nodeId, { purpose: 'setting indicator state' }, async (task) => {
    const mgmt = task.driver.management;
    await mgmt.validate(task);
    if (!mgmt.setIndicatorState) return unsupported(task, 'set_indicator_state');
    await mgmt.setIndicatorState(task, component, indicator, state);
  });
}
