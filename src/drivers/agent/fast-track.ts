/**
 * Fast track (Ironic's conductor utils fast_track_able / agent_is_alive / is_fast_track): a node
 * whose ramdisk is still up and heartbeating is driven on without the power off and reboot that
 * would start a new ramdisk. Every power decision that fast track skips is also skipped, or turned
 * into a reboot, for nodes with disable_power_off; the two are checked side by side.
 */
import { pyTruthy } from '../../common/python/truthiness';
import * as states from '../../common/states';
import type { NodeRecord } from '../../db/models';
import type { DriverTask } from '../base';

const SERVICING_STATES = [states.SERVICING, states.SERVICEWAIT, states.SERVICEFAIL, states.SERVICEHOLD];

/** utils.fast_track_enabled: the node's driver_info fast_track, else [deploy]fast_track. */
export function fastTrackEnabled(task: DriverTask): boolean {
  const own = (task.node.driver_info ?? {}).fast_track;
  return own === undefined || own === null ? task.ctx.conf.bool('deploy', 'fast_track') : pyTruthy(own);
}

/** value_within_timeout: a naive UTC timestamp (Python's isoformat) no older than `timeout` seconds. */
function withinTimeout(value: unknown, timeout: number): boolean {
  if (value === null || value === undefined || value === '') return false;
  const text = value instanceof Date ? value.toISOString() : String(value);
  const at = Date.parse(/[zZ]|[+-]\d\d:\d\d$/.test(text) ? text : `${text}Z`);
  return Number.isFinite(at) && Date.now() - timeout * 1000 <= at;
}

/** agent_is_alive: a recent inspection of a powered node, or a recent heartbeat from an agent with a URL. */
function agentIsAlive(node: NodeRecord, timeout: number): boolean {
  if (node.power_state === states.POWER_ON && withinTimeout(node.inspection_finished_at, timeout)) return true;
  const dii = node.driver_internal_info ?? {};
  if (!dii.agent_url) return false;
  return withinTimeout(dii.agent_last_heartbeat, timeout);
}

/** fast_track_able: enabled, an image to write, no last_error, and not servicing. */
export function fastTrackAble(task: DriverTask): boolean {
  const node = task.node;
  return fastTrackEnabled(task) && task.driver.storage.shouldWriteImage(task) && !node.last_error &&
    !SERVICING_STATES.includes(node.provision_state ?? '');
}

/** is_fast_track: fast-track-able, powered on, and the agent alive. */
export async function isFastTrack(task: DriverTask): Promise<boolean> {
  if (!fastTrackAble(task) || (await task.driver.power.getPowerState(task)) !== states.POWER_ON) return false;
  return agentIsAlive(task.node, task.ctx.conf.int('deploy', 'fast_track_timeout'));
}
