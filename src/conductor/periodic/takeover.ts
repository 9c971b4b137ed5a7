/**
 * Surviving other conductors: release reservations of dead ones and fail what they left mid-way
 * (_check_orphan_nodes), fail this host's own stuck states at start-up (_fail_transient_state),
 * and take over active nodes whose ring owner changed (_sync_local_state).
 */
import { NodeLocked, NoFreeConductorWorker } from '../../common/errors';
import { isNotFound } from '../../db/errors';
import { log } from '../../common/log';
import * as states from '../../common/states';
import type { Database } from '../../db/connection';
import type { NodeRecord } from '../../db/models';
import { isReleaseRefused, release, scanNodes } from '../../db/repositories/nodes';
import { offlineConductors } from '../../db/repositories/conductor-registry-queries';
import { cleaningErrorHandler } from '../error-handlers';
import type { ConductorManager } from '../manager';
import { doTakeover } from '../provisioning';
import type { RingManager } from '../../rpc/ring-manager';
import type { Task } from '../task';
import { failIfInState } from './fail-in-state';

const TAKEOVER_ABORT = 'Operation was aborted due to conductor take over';

async function abortOnTakeover(task: Task): Promise<void> {
  if (task.node.provision_state === states.CLEANFAIL) {
    await cleaningErrorHandler(task, TAKEOVER_ABORT, { setFailState: false });
  } else {
    await task.recordHistory(TAKEOVER_ABORT, states.HISTORY_TAKEOVER, true);
    await task.saveNode();
  }
  log.warning(`Aborted the current operation on node ${task.node.uuid} due to conductor take over`);
}

/** Drops the reservation an offline conductor left; false when it no longer held the node. */
async function releaseDeadHolder(db: Database, node: NodeRecord): Promise<boolean> {
  try {
    await release(db, node.id, node.reservation as string);
    return true;
  } catch (err) {
    if (isReleaseRefused(err)) return false;
    throw err;
  }
}

export async function checkOrphanNodes(manager: ConductorManager, rings: RingManager): Promise<void> {
  const { ctx } = manager;
  const dead = (await offlineConductors(ctx.db, ctx.conf.int('conductor', 'heartbeat_timeout'))).filter((h) => h !== ctx.host);
  if (!dead.length) return;
  const needCleanup: string[] = [];
  for (const node of await scanNodes(ctx.db, { reservedByAnyOf: dead })) {
    if (!(await rings.isMine(ctx.host, node))) continue;
    if (await releaseDeadHolder(ctx.db, node)) {
      log.warning(`Forcibly removed reservation of conductor ${node.reservation} on node ${node.uuid} as that conductor went offline`);
    }
    if (!node.maintenance && ([states.DEPLOYING, states.CLEANING].includes(node.provision_state ?? '') || node.target_power_state !== null)) {
      needCleanup.push(node.uuid);
    }
  }
  for (const uuid of needCleanup) {
    try {
      await manager.tasks.run(uuid, { purpose: 'power state clean up' }, async (task) => {
        if (!task.node.maintenance && task.node.target_power_state) {
          task.node.target_power_state = null;
          await task.recordHistory('Pending power operation was aborted due to conductor take over',
            states.HISTORY_TAKEOVER, true);
          await task.saveNode();
        }
      });
    } catch (err) {
      if (err instanceof NodeLocked || isNotFound(err, 'Node')) continue;
      throw err;
    }
    await failIfInState(manager, rings, { uuids: [uuid] }, [states.DEPLOYING, states.CLEANING], { callback: abortOnTakeover });
  }
}

/** Start-up: whatever this host left in a stuck state cannot be resumed. */
export async function failTransientStates(manager: ConductorManager, rings: RingManager): Promise<void> {
  for (const state of states.STUCK_STATES_TREATED_AS_FAIL) {
    await failIfInState(manager, rings, { reserved: false, provisionState: [state] }, [state], {
      lastError: `The ${state} state can't be resumed by conductor ${manager.ctx.host}. Moving to fail state.`,
    });
  }
}

export async function syncLocalState(manager: ConductorManager, rings: RingManager): Promise<void> {
  const { ctx } = manager;
  const limit = ctx.conf.int('conductor', 'periodic_max_workers');
  let taken = 0;
  for (const node of await scanNodes(ctx.db, { reserved: false, maintenance: false, provisionState: [states.ACTIVE] })) {
    if (taken >= limit) break;
    if (node.conductor_affinity === ctx.conductorId || !(await rings.isMine(ctx.host, node))) continue;
    try {
      await manager.tasks.run(node.uuid, { purpose: 'node take over', retry: false }, async (task) => {
        if (task.node.maintenance || task.node.conductor_affinity === ctx.conductorId ||
          task.node.provision_state !== states.ACTIVE) return;
        task.spawnAfter(doTakeover);
        taken++;
      });
    } catch (err) {
      if (err instanceof NoFreeConductorWorker) break;
      if (err instanceof NodeLocked || isNotFound(err, 'Node')) continue;
      throw err;
    }
  }
}
