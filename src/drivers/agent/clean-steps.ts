/**
 * The agent's in-band clean steps (AgentBaseMixin.refresh_steps / get_clean_steps /
 * execute_clean_step for cleaning): fetched from the agent when it first heartbeats, cached
 * in driver_internal_info.agent_cached_clean_steps by interface, offered as the deploy
 * interface's clean steps with [deploy]erase_devices*_priority applied, and run through
 * `clean.execute_clean_step`, which the agent finishes asynchronously.
 */
import type { OptionName } from '../../conf/registry';
import { AgentInProgress, NodeCleaningFailure } from '../../common/errors';
import { log } from '../../common/log';
import { pyRepr, pyReprSet } from '../../common/python/repr';
import * as states from '../../common/states';
import type { DriverTask, InterfaceKind, JsonObject, StepInfo } from '../base';
import type { AgentClient } from './client';
import { agentNodeDict } from './node-dict';

const pythonIsoNow = () => new Date().toISOString().replace('Z', '000');

/** refresh_steps(task, 'clean'): asks the agent for its clean steps and caches them by interface. */
export async function refreshCleanSteps(task: DriverTask, client: AgentClient): Promise<void> {
  const node = task.node;
  let result: Record<string, unknown>;
  try {
    const command = await client.getCleanSteps(node, agentNodeDict(task), task.ports);
    result = (command.command_result ?? {}) as Record<string, unknown>;
  } catch (err) {
    if (!(err instanceof AgentInProgress)) throw err;
    log.debug(`Agent for node ${node.uuid} is busy with a command, will refresh steps on the next heartbeat.`);
    return;
  }
  const missing = ['clean_steps', 'hardware_manager_version'].filter((k) => !Object.hasOwn(result, k));
  if (missing.length) {
    throw new NodeCleaningFailure(`agent get_clean_steps for node ${node.uuid} returned an invalid result. ` +
      `Keys: ${pyReprSet(missing)} are missing from result: ${pyRepr(result)}.`);
  }
  const byInterface: Record<string, JsonObject[]> = {};
  for (const list of Object.values((result.clean_steps ?? {}) as Record<string, JsonObject[]>)) {
    for (const step of list) {
      const absent = ['interface', 'step', 'priority'].filter((k) => !Object.hasOwn(step, k));
      if (absent.length) {
        throw new NodeCleaningFailure(`agent get_clean_steps for node ${node.uuid} returned an invalid clean step. ` +
          `Keys: ${pyReprSet(absent)} are missing from step: ${pyRepr(step)}.`);
      }
      (byInterface[String(step.interface)] ??= []).push({ ...step, requires_ramdisk: true });
    }
  }
  node.driver_internal_info = {
    ...(node.driver_internal_info ?? {}), hardware_manager_version: result.hardware_manager_version,
    agent_cached_clean_steps: byInterface, agent_cached_clean_steps_refreshed: pythonIsoNow(),
  };
  await task.saveNode();
}

/** get_steps(task, 'clean', interface, overrides): the cached steps of one interface. */
function cachedCleanSteps(task: DriverTask, iface: InterfaceKind, overrides: Record<string, number | null> = {}): StepInfo[] {
  const cache = (task.node.driver_internal_info ?? {}).agent_cached_clean_steps as Record<string, JsonObject[]> | undefined;
  return (cache?.[iface] ?? []).map((raw) => {
    const step = { ...raw } as unknown as StepInfo;
    const priority = overrides[step.step];
    if (priority !== undefined && priority !== null) step.priority = priority;
    return step;
  });
}

/** AgentBaseMixin.get_clean_steps: the agent's deploy-interface steps with the erase priorities from config. */
export function agentDeployCleanSteps(task: DriverTask): StepInfo[] {
  // Both options default to None in Ironic: the agent's own priorities (10 and 99) then apply.
  const option = (name: OptionName<'deploy'>) => {
    const v = task.ctx.conf.raw('deploy', name);
    return typeof v === 'number' ? v : null;
  };
  return cachedCleanSteps(task, 'deploy', {
    erase_devices: option('erase_devices_priority'),
    erase_devices_metadata: option('erase_devices_metadata_priority'),
  });
}

export function isCachedCleanStep(task: DriverTask, iface: InterfaceKind, name: string): boolean {
  return cachedCleanSteps(task, iface).some((s) => s.step === name);
}

/** execute_step(task, node.clean_step, 'clean'): hands the current step to the agent. */
export async function executeInbandCleanStep(task: DriverTask, client: AgentClient): Promise<string> {
  const step = (task.node.clean_step ?? {}) as JsonObject;
  const result = await client.executeCleanStep(task.node, step, agentNodeDict(task), task.ports);
  if (!result.command_status) {
    throw new NodeCleaningFailure(`Agent on node ${task.node.uuid} returned bad command result: ${pyRepr(result)}`);
  }
  return states.CLEANWAIT;
}
