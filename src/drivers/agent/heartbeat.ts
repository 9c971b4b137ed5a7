/**
 * Heartbeat processing of agent-based deploys (agent_base.py HeartbeatMixin and
 * process_next_step): on the first heartbeat in `wait call-back` the agent's in-band deploy
 * steps are cached; then the agent's command list tells whether the step that went
 * asynchronous has finished, failed, or still runs. The conductor acts on the outcome.
 */
import { InstanceDeployFailure } from '../../common/errors';
import { log } from '../../common/log';
import * as states from '../../common/states';
import type { DriverTask, HeartbeatOutcome, JsonObject } from '../base';
import { heartbeatCleanWait } from './clean-heartbeat';
import { AgentClient, commandErrorText, type AgentCommand } from './client';
import { agentNodeDict } from './node-dict';
import { heartbeatRescueWait } from './rescue-heartbeat';

/** States in which a heartbeat may act (agent_base HEARTBEAT_ALLOWED). */
const HEARTBEAT_ALLOWED = [states.DEPLOYWAIT, states.CLEANWAIT, states.RESCUEWAIT, states.DEPLOYING, states.CLEANING,
  states.RESCUING, states.SERVICEWAIT, states.SERVICING];

const stepId = (s: { interface?: unknown; step?: unknown }) => `${String(s.interface)}.${String(s.step)}`;

/** refresh_steps(task, 'deploy'): caches the agent's deploy steps by interface. */
export async function refreshDeploySteps(task: DriverTask, client: AgentClient): Promise<void> {
  const node = task.node;
  const command = await client.getDeploySteps(node, agentNodeDict(task), task.ports);
  const result = (command.command_result ?? {}) as Record<string, unknown>;
  const missing = ['deploy_steps', 'hardware_manager_version'].filter((k) => !Object.hasOwn(result, k));
  if (missing.length) {
    throw new InstanceDeployFailure(`agent get_deploy_steps for node ${node.uuid} returned an invalid result. ` +
      `Keys: ${missing.join(', ')} are missing from result: ${JSON.stringify(result)}.`);
  }
  const byInterface: Record<string, JsonObject[]> = {};
  for (const list of Object.values(result.deploy_steps as Record<string, JsonObject[]>)) {
    for (const step of list) {
      const absent = ['interface', 'step', 'priority'].filter((k) => !Object.hasOwn(step, k));
      if (absent.length) {
        throw new InstanceDeployFailure(`agent get_deploy_steps for node ${node.uuid} returned an invalid deploy step. ` +
          `Keys: ${absent.join(', ')} are missing from step: ${JSON.stringify(step)}.`);
      }
      (byInterface[String(step.interface)] ??= []).push(step);
    }
  }
  node.driver_internal_info = {
    ...(node.driver_internal_info ?? {}), hardware_manager_version: result.hardware_manager_version,
    agent_cached_deploy_steps: byInterface, agent_cached_deploy_steps_refreshed: new Date().toISOString().replace('Z', '000'),
  };
  await task.saveNode();
}

/** _freshly_booted: nothing ran yet but the steps query. */
function freshlyBooted(commands: AgentCommand[]): boolean {
  return commands.length === 0 || (commands.length === 1 && commands[0].command_name === 'get_deploy_steps');
}

/** _get_completed_command: the finished command of the current step, if it is done. */
function completedCommand(task: DriverTask, commands: AgentCommand[]): AgentCommand | null {
  const last = commands[commands.length - 1];
  if (last.command_name !== 'execute_deploy_step') return null;
  if (last.command_status === 'RUNNING') return null;
  const lastStep = ((last.command_result ?? {}) as Record<string, unknown>).deploy_step as JsonObject | undefined;
  const current = task.node.deploy_step ?? {};
  if (last.command_status === 'SUCCEEDED' && (!lastStep || stepId(lastStep) !== stepId(current))) return null;
  return last;
}

/** process_next_step(task, 'deploy'). */
export async function processNextDeployStep(task: DriverTask, client: AgentClient): Promise<HeartbeatOutcome> {
  const node = task.node;
  const commands = await client.getCommandsStatus(node);
  if (freshlyBooted(commands)) {
    const { deployment_reboot: _r, ...rest } = node.driver_internal_info ?? {};
    node.driver_internal_info = rest;
    await task.saveNode();
    return { action: 'continue-deploy' };
  }
  const command = completedCommand(task, commands);
  if (!command) return null;
  const current = node.deploy_step ?? {};
  if (command.command_status === 'FAILED') {
    return { action: 'fail-deploy',
      message: `Deploy step ${stepId(current)} failed on node ${node.uuid}. ${commandErrorText(command)}` };
  }
  if (command.command_status === 'SUCCEEDED') {
    log.info(`Agent on node ${node.uuid} returned deploy command success, moving to next step`);
    return { action: 'continue-deploy' };
  }
  return { action: 'fail-deploy',
    message: `Agent returned unknown status for deploy step ${JSON.stringify(current)} on node ${node.uuid} : ${command.command_status}.` };
}

/** _heartbeat_deploy_wait: cache in-band steps on the first heartbeat, then check progress. */
async function heartbeatDeployWait(task: DriverTask, client: AgentClient): Promise<HeartbeatOutcome> {
  const node = task.node;
  let msg = 'Unexpected exception';
  try {
    if (!(node.driver_internal_info ?? {}).agent_cached_deploy_steps) {
      msg = 'Failed to load in-band deploy steps';
      await refreshDeploySteps(task, client);
    }
    // touch_provisioning: the callback timeout counts from the last sign of life.
    node.provision_updated_at = new Date();
    await task.saveNode();
    if ((node.driver_internal_info ?? {}).deployment_polling) return null;
    msg = 'Failed to process the next deploy step';
    return await processNextDeployStep(task, client);
  } catch (err) {
    const lastError = `${msg}: ${(err as Error).message}`;
    log.error(`Asynchronous exception for node ${node.uuid}: ${lastError}`);
    return { action: 'fail-deploy', message: lastError };
  }
}

/** _heartbeat_in_maintenance: a node put in maintenance mid-operation has that operation aborted. */
function heartbeatInMaintenance(task: DriverTask): HeartbeatOutcome {
  const node = task.node;
  const state = node.provision_state ?? '';
  if (!task.ctx.conf.bool('conductor', 'allow_provisioning_in_maintenance')) {
    if ([states.CLEANING, states.CLEANWAIT].includes(state)) {
      return { action: 'fail-clean', message: `Aborting cleaning for node ${node.uuid}, as it is in maintenance mode`,
        errmsg: 'Cleaning aborted as node is in maintenance mode' };
    }
    if ([states.DEPLOYING, states.DEPLOYWAIT].includes(state)) {
      return { action: 'fail-deploy', message: 'Deploy aborted as node is in maintenance mode' };
    }
    if ([states.RESCUING, states.RESCUEWAIT].includes(state)) {
      return { action: 'fail-rescue', message: 'Rescue aborted as node is in maintenance mode' };
    }
  }
  log.warning(`Heartbeat from node ${node.uuid} in maintenance mode; not taking any action.`);
  return null;
}

/** HeartbeatMixin.heartbeat, after the conductor recorded agent_url and the heartbeat time. */
export async function agentHeartbeat(task: DriverTask, client: AgentClient): Promise<HeartbeatOutcome> {
  const node = task.node;
  if (!HEARTBEAT_ALLOWED.includes(node.provision_state ?? '')) {
    log.error(`Heartbeat from node ${node.uuid} in unsupported provision state ${node.provision_state}, not taking any action.`);
    return null;
  }
  if (node.maintenance) return heartbeatInMaintenance(task);
  if (node.provision_state === states.DEPLOYWAIT) return heartbeatDeployWait(task, client);
  if (node.provision_state === states.CLEANWAIT) return heartbeatCleanWait(task, client);
  if (node.provision_state === states.RESCUEWAIT) return heartbeatRescueWait(task, client);
  return null;
}

/** agent_base.execute_step for deploy steps: runs an in-band step, to be finished asynchronously. */
export async function executeInbandDeployStep(task: DriverTask, client: AgentClient, step: JsonObject): Promise<string> {
  const result = await client.executeDeployStep(task.node, step, agentNodeDict(task), task.ports);
  if (!result.command_status) {
    throw new InstanceDeployFailure(`Agent on node ${task.node.uuid} returned bad command result: ${JSON.stringify(result)}`);
  }
  return states.DEPLOYWAIT;
}
