/**
 * Power actions (conductor/utils.py node_power_action + manager.change_node_power_state):
 * skip no-op changes, track target_power_state, record failures in history and last_error.
 */
import { notifyPowerSet } from '../notifications/events';
import { InvalidParameterValue, PowerStateFailure } from '../common/errors';
import { log } from '../common/log';
import * as states from '../common/states';
import { FAILURE_STATES } from './fsm';
import { withDeadline } from './deadline';
import { errorText, powerStateErrorHandler } from './error-handlers';
import { needsParentPower, powerOffChildren, powerOnParent } from './power-relatives';
import type { Task } from './task';
import type { TaskManager } from './task-manager';

/** datetime.utcnow().isoformat(): microseconds, no zone. */
function pythonIsoNow(): string {
  return new Date().toISOString().replace('Z', '000');
}

function targetOf(newState: string): string | null {
  if ([states.POWER_ON, states.REBOOT, states.SOFT_REBOOT].includes(newState)) return states.POWER_ON;
  if ([states.POWER_OFF, states.SOFT_POWER_OFF].includes(newState)) return states.POWER_OFF;
  return null;
}

function wipeOnPowerOff(task: Task): void {
  const info = { ...(task.node.driver_internal_info ?? {}) };
  for (const k of ['agent_url', 'agent_secret_token', 'agent_cached_deploy_steps', 'agent_cached_clean_steps', 'agent_verify_ca']) {
    if (k === 'agent_secret_token' && info.agent_secret_token_pregenerated) continue;
    delete info[k];
  }
  task.node.driver_internal_info = info;
}

function driverDeadline(task: Task, timeout?: number): number {
  // A hung BMC must not hold the lock forever: bound each call by the state-change timeout.
  return (timeout ?? task.ctx.conf.int('conductor', 'power_state_change_timeout')) + 5;
}

/** True (after recording it) when the node is already where the request would put it. */
async function canSkip(task: Task, newState: string): Promise<boolean> {
  if (![states.POWER_ON, states.POWER_OFF, states.SOFT_POWER_OFF].includes(newState)) return false;
  let current: string | null;
  try {
    current = await withDeadline(task.driver.power.getPowerState(task), driverDeadline(task), 'get_power_state');
  } catch (err) {
    await task.recordHistory(`Failed to change power state to '${newState}': ${errorText(err)}`, '', true);
    task.node.target_power_state = null;
    await task.saveNode();
    notifyPowerSet(task, 'error', 'error', newState);
    throw err;
  }
  const same = (current === states.POWER_ON && newState === states.POWER_ON) ||
    (current === states.POWER_OFF && (newState === states.POWER_OFF || newState === states.SOFT_POWER_OFF));
  if (!same) return false;
  task.node.last_error = null;
  task.node.power_state = current;
  task.node.target_power_state = null;
  await task.saveNode();
  notifyPowerSet(task, 'info', 'end', newState);
  return true;
}

/**
 * `tasks`, when given, lets the action reach the node's parent and children (power-relatives.ts);
 * the TaskManager's own power action always passes it.
 */
export async function nodePowerAction(task: Task, newState: string, timeout?: number, tasks?: TaskManager): Promise<void> {
  task.requireExclusive();
  notifyPowerSet(task, 'info', 'start', newState);
  if (targetOf(newState) === states.POWER_OFF && task.node.disable_power_off) {
    log.error(`Refusing to power off node ${task.node.uuid} with disable_power_off flag set`);
    throw new PowerStateFailure({ pstate: newState });
  }
  if (await canSkip(task, newState)) {
    if ([states.POWER_OFF, states.SOFT_POWER_OFF, states.REBOOT, states.SOFT_REBOOT].includes(newState)) {
      wipeOnPowerOff(task);
      await task.saveNode();
    }
    return;
  }
  const target = targetOf(newState);
  task.node.target_power_state = target;
  if (!FAILURE_STATES.includes(task.node.provision_state ?? '')) task.node.last_error = null;
  task.node.driver_internal_info = {
    ...(task.node.driver_internal_info ?? {}), last_power_state_change: pythonIsoNow(),
  };
  if ([states.POWER_OFF, states.SOFT_POWER_OFF, states.REBOOT, states.SOFT_REBOOT].includes(newState)) wipeOnPowerOff(task);
  await task.saveNode();
  try {
    if (target === states.POWER_ON && task.node.provision_state === states.ACTIVE) await task.driver.storage.attachVolumes(task);
    if (tasks && target !== null) await powerRelatives(tasks, task, newState, target, timeout);
    const call = newState === states.REBOOT
      ? task.driver.power.reboot(task, timeout)
      : task.driver.power.setPowerState(task, newState, timeout);
    await withDeadline(call, driverDeadline(task, timeout), 'power action', () => new PowerStateFailure({ pstate: newState }));
  } catch (err) {
    task.node.target_power_state = null;
    await task.recordHistory(`Failed to change power state to '${target}' by '${newState}': ${errorText(err)}`, '', true);
    await task.saveNode();
    notifyPowerSet(task, 'error', 'error', newState);
    throw err;
  }
  task.node.power_state = target;
  task.node.target_power_state = null;
  await task.saveNode();
  notifyPowerSet(task, 'info', 'end', newState);
  log.info(`Successfully set node ${task.node.uuid} power state to ${target} by ${newState}.`);
  if (target === states.POWER_OFF && task.node.provision_state === states.ACTIVE) {
    await task.driver.storage.detachVolumes(task).catch((err: unknown) =>
      log.warning(`Volume detachment for node ${task.node.uuid} failed: ${errorText(err)}`));
  }
}

/** The parent or the children a power on or off (not a reboot) acts on first. */
async function powerRelatives(tasks: TaskManager, task: Task, newState: string, target: string, timeout?: number): Promise<void> {
  const act = (t: Task, state: string, to?: number): Promise<void> => nodePowerAction(t, state, to, tasks);
  if (newState === states.POWER_ON && needsParentPower(task)) await powerOnParent(tasks, task, act, target, timeout);
  if (newState === states.POWER_OFF) await powerOffChildren(tasks, task, act, target, timeout);
}

export async function changeNodePowerState(tasks: TaskManager, nodeId: string, newState: string, timeout?: number): Promise<void> {
  await tasks.run(nodeId, { purpose: 'changing node power state' }, async (task) => {
    await task.driver.power.validate(task);
    const supported = await task.driver.power.getSupportedPowerStates(task);
    if (!supported.includes(newState)) {
      throw new InvalidParameterValue(`The driver ${task.node.driver} does not support the power state, ${newState}`);
    }
    const soft = newState === states.SOFT_REBOOT || newState === states.SOFT_POWER_OFF;
    const powerTimeout = soft ? (timeout || task.ctx.conf.int('conductor', 'soft_power_off_timeout')) : timeout;
    const previous = task.node.power_state;
    task.node.target_power_state = targetOf(newState) === states.POWER_ON ? states.POWER_ON : states.POWER_OFF;
    task.node.last_error = null;
    await task.saveNode();
    task.spawnAfter(async (t) => {
      await nodePowerAction(t, newState, powerTimeout).catch((err: unknown) =>
        log.error(`Power action ${newState} on node ${t.node.uuid} failed: ${errorText(err)}`));
    }, powerStateErrorHandler(previous));
  });
}
