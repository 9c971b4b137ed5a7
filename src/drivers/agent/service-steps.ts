/**
 * The agent's in-band service steps (AgentBaseMixin.refresh_steps / get_service_steps /
 * execute_service_step of Ironic 2025.1): fetched from the agent on its first heartbeat in
 * `service wait`, cached in driver_internal_info.agent_cached_service_steps by interface, offered
 * (every interface's) as the deploy interface's service steps, and run through
 * `service.execute_service_step`, which the agent finishes asynchronously.
 */
import { AgentInProgress, NodeServicingFailure } from '../../common/errors';
import { log } from '../../common/log';
import { pyRepr, pyReprSet } from '../../common/python/repr';
import * as states from '../../common/states';
import type { DriverTask, JsonObject, StepInfo } from '../base';
import type { AgentClient } from './client';
import { agentNodeDict } from './node-dict';

const pythonIsoNow = () => new Date().toISOString().replace('Z', '000');

function invalid(task: DriverTask, what: string): never {
  throw new NodeServicingFailure(`agent get_service_steps for node ${task.node.uuid} returned ${what}`);
}

/** refresh_steps(task, 'service'): asks the agent for its service steps and caches them by interface. */
export async function refreshServiceSteps(task: DriverTask, client: AgentClient): Promise<void> {
  const node = task.node;
  let result: Record<string, unknown>;
  try {
    const command = await client.getServiceSteps(node, agentNodeDict(task), task.ports);
    result = (command.command_result ?? {}) as Record<string, unknown>;
  } catch (err) {
    if (!(err instanceof AgentInProgress)) throw err;
    log.debug(`Agent for node ${node.uuid} is busy with a command, will refresh steps on the next heartbeat.`);
    return;
  }
  const missing = ['service_steps', 'hardware_manager_version'].filter((k) => !Object.hasOwn(result, k));
  if (missing.length) {
    invalid(task, `an invalid result. Keys: ${pyReprSet(missing)} are missing from result: ${pyRepr(result)}.`);
  }
  const byInterface: Record<string, JsonObject[]> = {};
  for (const list of Object.values((result.service_steps ?? {}) as Record<string, JsonObject[]>)) {
    for (const step of list) {
      const absent = ['interface', 'step', 'priority'].filter((k) => !Object.hasOwn(step, k));
      if (absent.length) {
        invalid(task, `an invalid service step. Keys: ${pyReprSet(absent)} are missing from step: ${pyRepr(step)}.`);
      }
      (byInterface[String(step.interface)] ??= []).push({ ...step });
    }
  }
  node.driver_internal_info = {
    ...(node.driver_internal_info ?? {}), hardware_manager_version: result.hardware_manager_version,
    agent_cached_service_steps: byInterface, agent_cached_service_steps_refreshed: pythonIsoNow(),
  };
  await task.saveNode();
}

/** get_service_steps: every cached step, whatever its interface (Ironic asks for no interface here). */
export function agentServiceSteps(task: DriverTask): StepInfo[] {
  const cache = (task.node.driver_internal_info ?? {}).agent_cached_service_steps as Record<string, JsonObject[]> | undefined;
  return Object.values(cache ?? {}).flat().map((raw) => ({ ...raw }) as unknown as StepInfo);
}

/** A deploy-interface step the agent offered for servicing, while the node is being serviced. */
export function isAgentServiceStep(task: DriverTask, name: string): boolean {
  const servicing = [states.SERVICING, states.SERVICEWAIT].includes(task.node.provision_state ?? '');
  return servicing && agentServiceSteps(task).some((s) => s.interface === 'deploy' && s.step === name);
}

/** execute_step(task, node.service_step, 'service'): hands the current step to the agent. */
export async function executeInbandServiceStep(task: DriverTask, client: AgentClient): Promise<string> {
  const step = (task.node.service_step ?? {}) as JsonObject;
  const result = await client.executeServiceStep(task.node, step, agentNodeDict(task), task.ports);
  if (!result.command_status) {
    throw new NodeServicingFailure(`Agent on node ${task.node.uuid} returned bad command result: ${pyRepr(result)}`);
  }
  return states.SERVICEWAIT;
}
