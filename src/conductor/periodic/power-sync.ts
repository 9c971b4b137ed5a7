/**
 * Power state sync (_sync_power_states / do_sync_power_state) and recovery from the resulting
 * `power failure` maintenance (_power_failure_recovery).
 */
import { MetricLogger } from '../../metrics/ironic-metrics';
import { observePowerSync } from '../../metrics/prometheus';
import { notifyPowerStateCorrected } from '../../notifications/events';
import { NodeLocked, PowerStateFailure } from '../../common/errors';
import { isNotFound } from '../../db/errors';
import { log } from '../../common/log';
import * as states from '../../common/states';
import { scanNodeSummaries } from '../../db/repositories/nodes';
import { withDeadline } from '../deadline';
import { errorText } from '../error-handlers';
import type { ConductorManager } from '../manager';
import type { RingManager } from '../../rpc/ring-manager';
import type { Task } from '../task';
import { yieldToEventLoop } from './yield';
import { cacheBootMode, cacheVendor } from '../node-cache';

const SYNC_METRICS = new MetricLogger('ironic.conductor.manager');

async function readPower(task: Task): Promise<string | null> {
  const seconds = task.ctx.conf.int('conductor', 'power_state_change_timeout');
  const state = await withDeadline(task.driver.power.getPowerState(task), seconds, 'get_power_state');
  if (state === states.ERROR) {
    throw new PowerStateFailure('Power driver returned ERROR state while trying to sync power state.');
  }
  return state;
}

async function maxRetriesExceeded(manager: ConductorManager, task: Task, actual: string | null, error?: unknown): Promise<void> {
  await manager.tasks.upgrade(task, false);
  const node = task.node;
  let msg = `During sync_power_state, max retries exceeded for node ${node.uuid}, node state ${actual ?? 'None'} ` +
    `does not match expected state '${node.power_state ?? 'None'}'. Updating DB state to '${actual ?? 'None'}' ` +
    'Switching node to maintenance mode.';
  if (error !== undefined) msg += ` Error: ${errorText(error)}`;
  const before = node.power_state;
  node.power_state = actual;
  await task.recordHistory(msg, states.HISTORY_MONITORING, true);
  node.maintenance = true;
  node.maintenance_reason = msg;
  node.fault = states.FAULT_POWER_FAILURE;
  await task.saveNode();
  if (before !== actual) notifyPowerStateCorrected(task, before);
  log.error(msg);
}

/** One node's sync; returns the new failure count (0 on success). */
async function syncOne(manager: ConductorManager, task: Task, count: number): Promise<number> {
  const maxRetries = manager.ctx.conf.int('conductor', 'power_state_sync_max_retries');
  count += 1;
  if (task.node.power_state === null) {
    try {
      await task.driver.power.validate(task);
    } catch {
      return 0;
    }
  }
  let actual: string | null;
  try {
    actual = await readPower(task);
  } catch (err) {
    if (count > maxRetries) await maxRetriesExceeded(manager, task, null, err);
    else {
      log.warning(`During sync_power_state, could not get power state for node ${task.node.uuid}, attempt ${count} ` +
        `of ${maxRetries}. Error: ${errorText(err)}.`);
    }
    return count;
  }
  // The vendor, in case verification could not record it, and the current boot mode (as Ironic's sync does).
  const upgrade = (): Promise<void> => manager.tasks.upgrade(task, false);
  await cacheVendor(task, upgrade);
  await cacheBootMode(task, upgrade);
  if (task.node.power_state === actual) return 0;
  await upgrade();
  const node = task.node;
  if (node.power_state === actual) return 0;
  if (states.SYNC_EXCLUDED_STATES.includes(node.provision_state ?? '') || node.maintenance) return 0;
  if (node.power_state === null) {
    node.power_state = actual;
    await task.saveNode();
    notifyPowerStateCorrected(task, null);
    return 0;
  }
  if (count > maxRetries) {
    await maxRetriesExceeded(manager, task, actual);
    return count;
  }
  // A node that may not be powered off is never forced back to its recorded state either.
  if (manager.ctx.conf.bool('conductor', 'force_power_state_during_sync') && task.driver.power.supportsPowerSync(task) &&
    !node.disable_power_off) {
    await task.powerAction(node.power_state).catch((err: unknown) =>
      log.error(`Failed to change power state of node ${node.uuid} to '${node.power_state}', attempt ${count} of ` +
        `${maxRetries}: ${errorText(err)}`));
  } else {
    const before = node.power_state;
    node.power_state = actual;
    await task.saveNode();
    notifyPowerStateCorrected(task, before);
  }
  return count;
}

const SCAN_BATCH = 500;

export class PowerSync {
  private readonly counts = new Map<number, number>();

  constructor(private readonly manager: ConductorManager, private readonly rings: RingManager) {}

  async syncPowerStates(): Promise<void> {
    const started = performance.now();
    const before = this.failures;
    try {
      await this.syncAll();
    } finally {
      observePowerSync((performance.now() - started) / 1000, this.failures - before);
    }
  }

  /** Failed node syncs so far (a node whose state could not be read or set, or whose sync threw). */
  private failures = 0;

  private async syncAll(): Promise<void> {
    const { ctx } = this.manager;
    const nodes = await scanNodeSummaries(ctx.db, { maintenance: false }, SCAN_BATCH, yieldToEventLoop);
    nodes.sort((a, b) => (this.counts.get(b.id) ?? 0) - (this.counts.get(a.id) ?? 0));
    for (const candidate of nodes) {
      await yieldToEventLoop();
      // As Ironic's _sync_power_states: nodes a ramdisk or a power action owns, and enroll nodes, are left alone.
      if (candidate.reservation || candidate.target_power_state || states.SYNC_EXCLUDED_STATES.includes(candidate.provision_state ?? '')) continue;
      if (!(await this.rings.isMine(ctx.host, candidate))) continue;
      try {
        await this.manager.tasks.run(candidate.uuid, { shared: true, purpose: 'power state sync', retry: false }, async (task) => {
          if (task.node.maintenance || task.node.reservation && task.node.reservation !== ctx.host) return;
          const count = await SYNC_METRICS.time('do_sync_power_state', () => syncOne(this.manager, task, this.counts.get(task.node.id) ?? 0));
          if (count) this.failures++;
          if (count) this.counts.set(task.node.id, count);
          else this.counts.delete(task.node.id);
        });
      } catch (err) {
        if (err instanceof NodeLocked || isNotFound(err, 'Node')) continue;
        log.warning(`Power sync of node ${candidate.uuid} failed: ${errorText(err)}`);
        this.failures++;
      }
    }
  }

  async powerFailureRecovery(): Promise<void> {
    const { ctx } = this.manager;
    const nodes = await scanNodeSummaries(ctx.db, { maintenance: true, fault: states.FAULT_POWER_FAILURE, reserved: false },
      SCAN_BATCH, yieldToEventLoop);
    for (const candidate of nodes) {
      await yieldToEventLoop();
      if (candidate.provision_state === states.ENROLL || candidate.target_power_state) continue;
      if (!(await this.rings.isMine(ctx.host, candidate))) continue;
      try {
        await this.manager.tasks.run(candidate.uuid, { shared: true, purpose: 'power failure recovery', retry: false }, async (task) => {
          let actual: string | null;
          try {
            await task.driver.power.validate(task);
            actual = await readPower(task);
          } catch (err) {
            log.debug(`During power_failure_recovery, could not get power state for node ${task.node.uuid}: ${errorText(err)}`);
            return;
          }
          await this.manager.tasks.upgrade(task, false);
          const before = task.node.power_state;
          task.node.power_state = actual;
          task.node.maintenance = false;
          task.node.maintenance_reason = null;
          task.node.fault = null;
          await task.saveNode();
          this.counts.delete(task.node.id);
          if (before !== actual) notifyPowerStateCorrected(task, before);
          log.info(`Node ${task.node.uuid} is recovered from power failure with actual power state '${actual}'.`);
        });
      } catch (err) {
        if (err instanceof NodeLocked || isNotFound(err, 'Node')) continue;
        log.warning(`Power failure recovery of node ${candidate.uuid} failed: ${errorText(err)}`);
      }
    }
  }
}
