/**
 * Heartbeats in `rescue wait` (HeartbeatMixin._heartbeat_rescue_wait / _finalize_rescue): the
 * rescue ramdisk gets the hashed rescue password through `rescue.finalize_rescue` (the agent
 * then stops serving its API), and the conductor finishes the rescue.
 */
import { AgentAPIError, InstanceRescueFailure, IronicError } from '../../common/errors';
import { log } from '../../common/log';
import type { DriverTask, HeartbeatOutcome } from '../base';
import { commandErrorText, type AgentClient, type AgentCommand } from './client';

/** finalize_rescue, with the plain-text retry for agents older than 6.0.0 unless a hash is required. */
async function finalizeRescue(task: DriverTask, client: AgentClient): Promise<AgentCommand> {
  try {
    return await client.finalizeRescue(task.node);
  } catch (err) {
    if (!(err instanceof AgentAPIError)) throw err;
    if (task.ctx.conf.bool('conductor', 'require_rescue_password_hashed')) {
      throw new InstanceRescueFailure('Unable to rescue node due to an out of date agent ramdisk. Please contact the ' +
        'administrator to update the rescue ramdisk to contain an ironic-python-agent version of at least 6.0.0.');
    }
    return client.command(task.node, 'rescue.finalize_rescue',
      { rescue_password: (task.node.instance_info ?? {}).rescue_password ?? null });
  }
}

async function finalize(task: DriverTask, client: AgentClient): Promise<void> {
  const node = task.node;
  let result: AgentCommand;
  try {
    result = await finalizeRescue(task, client);
  } catch (err) {
    if (!(err instanceof IronicError)) throw err;
    throw new InstanceRescueFailure({ node: node.uuid, instance: node.instance_uuid, reason: err.message });
  }
  if (result.command_status !== 'SUCCEEDED') {
    throw new InstanceRescueFailure({ node: node.uuid, instance: node.instance_uuid,
      reason: `Agent returned bad result for command finalize_rescue: ${commandErrorText(result)}` });
  }
}

/** _heartbeat_rescue_wait: the agent has the password; the conductor resumes and finishes the rescue. */
export async function heartbeatRescueWait(task: DriverTask, client: AgentClient): Promise<HeartbeatOutcome> {
  const msg = 'Node failed to perform rescue operation';
  try {
    await finalize(task, client);
    return { action: 'finish-rescue', errorPrefix: msg };
  } catch (err) {
    const lastError = `${msg}: ${(err as Error).message}`;
    log.error(`Asynchronous exception for node ${task.node.uuid}: ${lastError}`);
    return { action: 'fail-rescue', message: lastError };
  }
}
