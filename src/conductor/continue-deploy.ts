/**
 * Resuming deployments from a ramdisk heartbeat (manager.heartbeat's spawned work,
 * deployments.continue_node_deploy): the heartbeat is recorded under the exclusive lock,
 * the deploy interface judges it, and the conductor resumes the deploy steps or fails the
 * deploy as the driver's outcome says.
 */
import { NodeLocked } from '../common/errors';
import { log } from '../common/log';
import type { JsonObject, Step } from '../rpc/conductor-api';
import { continueDeploySteps, revalidateDeploySteps } from './deployments';
import { deployingErrorHandler, errorText } from './error-handlers';
import { actOnHeartbeat } from './heartbeat-outcome';
import { nextStepIndex } from './step-runner';
import type { Task } from './task';
import type { TaskManager } from './task-manager';

/** datetime.utcnow().isoformat(), as timestamp_driver_internal_info stores it. */
const pythonIsoNow = () => new Date().toISOString().replace('Z', '000');

/**
 * continue_node_deploy: on the first resume the step list is computed again now that the agent
 * runs (validate_deploy_steps), then the steps go on from the next index.
 */
export async function continueNodeDeploy(task: Task): Promise<void> {
  const node = task.node;
  const info = node.driver_internal_info ?? {};
  if (!info.steps_validated) {
    try {
      await revalidateDeploySteps(task);
    } catch (err) {
      await deployingErrorHandler(task, `Failed to validate the final deploy steps list for node ${node.uuid}: ${errorText(err)}`);
      return;
    }
  }
  await continueDeploySteps(task, await nextStepIndex(task, 'deploy'));
}

function recordHeartbeat(task: Task, callbackUrl: string, agentVersion: string | null, extra: JsonObject): void {
  const info: JsonObject = { ...(task.node.driver_internal_info ?? {}), agent_url: callbackUrl, agent_version: agentVersion,
    agent_last_heartbeat: pythonIsoNow() };
  for (const key of ['agent_verify_ca', 'agent_status', 'agent_status_message']) {
    if (extra[key]) info[key] = extra[key];
  }
  task.node.driver_internal_info = info;
}

/**
 * The worker part of a heartbeat: take the exclusive lock without waiting (a busy node skips
 * this heartbeat, the next one retries), record it, and act on the driver's verdict.
 */
export async function processHeartbeat(tasks: TaskManager, task: Task, callbackUrl: string, agentVersion: string | null,
  extra: JsonObject): Promise<void> {
  try {
    await tasks.upgrade(task, false);
  } catch (err) {
    if (!(err instanceof NodeLocked)) throw err;
    log.warning(`Node ${task.node.uuid} is currently locked, skipping heartbeat processing (will retry on the next heartbeat)`);
    return;
  }
  recordHeartbeat(task, callbackUrl, agentVersion, extra);
  await task.saveNode();
  const outcome = await task.driver.deploy.heartbeat(task, callbackUrl, agentVersion);
  if (!outcome) return;
  await actOnHeartbeat(task, outcome, continueNodeDeploy);
}

/** A ramdisk without an agent called back (the iscsi deploy): resume the deploy steps as a heartbeat would. */
export async function resumeDeployAfterCallback(task: Task): Promise<void> {
  await actOnHeartbeat(task, { action: 'continue-deploy' }, continueNodeDeploy);
}
