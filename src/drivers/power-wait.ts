/**
 * conductor/utils.py node_wait_for_power_state, as every power interface waits after a command:
 * a back-off loop (first poll after 1 s, then doubling up to 5 s) reading the BMC's power state
 * until it is `target`, PowerStateFailure after `timeout` seconds ([conductor]power_state_change_timeout).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { PowerStateFailure } from '../common/errors';
import { log } from '../common/log';
import type { DriverTask } from './base';

const FIRST_POLL_MS = 1000;
const MAX_POLL_MS = 5000;

export async function waitForPowerState(task: DriverTask, target: string, read: () => Promise<string | null>, timeout?: number): Promise<void> {
  const seconds = timeout || task.ctx.conf.int('conductor', 'power_state_change_timeout');
  const deadline = Date.now() + seconds * 1000;
  for (let delay = FIRST_POLL_MS; ; delay = Math.min(delay * 2, MAX_POLL_MS)) {
    const wait = Math.min(delay, deadline - Date.now());
    if (wait > 0) await sleep(wait);
    if (await read() === target) return;
    if (Date.now() >= deadline) {
      log.error(`Timed out after ${seconds} secs waiting for ${target} on node ${task.node.uuid}.`);
      throw new PowerStateFailure({ pstate: target });
    }
  }
}
