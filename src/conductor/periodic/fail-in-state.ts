/**
 * _fail_if_in_state: for each matching node this conductor owns, take the lock and fire `fail`
 * (with a callback run in the worker pool, or just a last_error), skipping locked nodes.
 */
import { NodeLocked, NoFreeConductorWorker } from '../../common/errors';
import { isNotFound } from '../../db/errors';
import { log } from '../../common/log';
import * as states from '../../common/states';
import { NodeScanFilter, scanNodes } from '../../db/repositories/nodes';
import type { ConductorManager } from '../manager';
import type { RingManager } from '../../rpc/ring-manager';
import type { Task } from '../task';
import { provisioningErrorHandler } from '../error-handlers';

interface FailOptions {
  callback?: (task: Task) => Promise<void>;
  lastError?: string;
  keepTargetState?: boolean;
}

export async function failIfInState(manager: ConductorManager, rings: RingManager, filter: NodeScanFilter,
  provisionStates: string[], opts: FailOptions): Promise<number> {
  const host = manager.ctx.host;
  let failed = 0;
  for (const candidate of await scanNodes(manager.ctx.db, filter)) {
    if (!(await rings.isMine(host, candidate))) continue;
    try {
      await manager.tasks.run(candidate.uuid, { purpose: 'node state check', retry: false }, async (task) => {
        if (filter.maintenance !== undefined && filter.maintenance !== Boolean(task.node.maintenance)) return;
        if (!provisionStates.includes(task.node.provision_state ?? '')) return;
        const targetState = opts.keepTargetState ? task.node.target_provision_state : null;
        if (opts.callback) {
          await task.processEvent('fail', { spawn: opts.callback, errHandler: provisioningErrorHandler, targetState });
        } else {
          await task.recordHistory(opts.lastError, states.HISTORY_TRANSITION, true);
          await task.processEvent('fail', { targetState });
        }
        failed++;
      });
    } catch (err) {
      if (err instanceof NodeLocked || isNotFound(err, 'Node')) continue;
      if (err instanceof NoFreeConductorWorker) break;
      log.warning(`Failed to move node ${candidate.uuid} to a failed state: ${(err as Error).message}`);
    }
  }
  return failed;
}
