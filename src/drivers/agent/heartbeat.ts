/**
 * Heartbeat processing of agent-based deploys (agent_base.py HeartbeatMixin): on the first
 * heartbeat in `wait call-back` the agent's in-band deploy steps are cached; then
 * process_next_step (next-step.ts) judges the step that went asynchronous. The conductor acts
 * on the outcome.
 */
import { InstanceDeployFailure } from '../../common/errors';
import { log } from '../../common/log';
import * as states from '../../common/states';
import type { DriverTask, HeartbeatOutcome, JsonObject } from '../base';
import { heartbeatCleanWait } from './clean-heartbeat';
import type { AgentClient } from './client';
import { processNextStep } from './next-step';
import { agentNodeDict } from './node-dict';
import { collectRamdiskLogs, deployLogsCollect } from './ramdisk-logs';
import { heartbeatRescueWait } from './rescue-heartbeat';
import { heartbeatServiceWait } from './service-heartbeat';

/** States in which a heartbeat may act (agent_base HEARTBEAT_ALLOWED). */
const HEARTBEAT_ALLOWED = [states.DEPLOYWAIT, states.CLEANWAIT, states.RESCUEWAIT, states.DEPLOYING, states.CLEANING,
  states.RESCUING, states.SERVICEWAIT, states.SERVICING];

/** refresh_steps(task, 'deploy'): caches the agent's deploy steps by interface. */
export async function refreshDeploySteps(task: DriverTask, client: AgentClient): Promise<void> {
  const node = task.node;
  const command = await client.getDeploySteps(node, await agentNodeDict(task), task.ports);
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
    return await processNextStep(task, client, 'deploy');
  } catch (err) {
    const lastError = `${msg}: ${(err as Error).message}`;
    log.error(`Asynchronous exception for node ${node.uuid}: ${lastError}`);
    // set_failed_state(collect_logs=True), for a node still deploying.
    if ([states.DEPLOYING, states.DEPLOYWAIT].includes(node.provision_state ?? '') && deployLogsCollect(task.ctx.conf) !== 'never') {
      await collectRamdiskLogs(task, client);
    }
    return { action: 'fail-deploy', message: lastError, setFailedState: true };
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
      return { action: 'fail-deploy', message: 'Deploy aborted as node is in maintenance mode', setFailedState: true };
    }
    if ([states.RESCUING, states.RESCUEWAIT].includes(state)) {
      return { action: 'fail-rescue', message: 'Rescue aborted as node is in maintenance mode' };
    }
    if ([states.SERVICING, states.SERVICEWAIT].includes(state)) {
      return { action: 'fail-service', message: 'Service aborted as node is in maintenance mode' };
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
  if (node.provision_state === states.SERVICEWAIT) return heartbeatServiceWait(task, client);
  return null;
}

/** agent_base.execute_step for deploy steps: runs an in-band step, to be finished asynchronously. */
export async function executeInbandDeployStep(task: DriverTask, client: AgentClient, step: JsonObject): Promise<string> {
  const result = await client.executeDeployStep(task.node, step, await agentNodeDict(task, { maskConfigdrive: false }), task.ports);
  if (!result.command_status) {
    throw new InstanceDeployFailure(`Agent on node ${task.node.uuid} returned bad command result: ${JSON.stringify(result)}`);
  }
  return states.DEPLOYWAIT;
}
