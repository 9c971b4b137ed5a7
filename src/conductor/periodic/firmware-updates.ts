/**
 * The periodic checks of firmware updates a firmware interface started and returned a wait state for
 * (RedfishFirmware._query_update_status and _query_update_failed of Ironic 2025.1, both spaced by
 * [redfish]firmware_update_fail_interval as there): nodes of this conductor waiting in a flow with an
 * update pending have it looked at under their lock, and the verdict resumes or fails the flow; nodes
 * whose flow failed into maintenance have their remaining updates discarded.
 */
import { NodeLocked, NoFreeConductorWorker } from '../../common/errors';
import { log } from '../../common/log';
import * as states from '../../common/states';
import { isNotFound } from '../../db/errors';
import type { NodeRecord } from '../../db/models';
import { scanNodes, type NodeScanFilter } from '../../db/repositories/nodes';
import type { RingManager } from '../../rpc/ring-manager';
import { continueNodeDeploy } from '../continue-deploy';
import { actOnHeartbeat } from '../heartbeat-outcome';
import type { ConductorManager } from '../manager';
import type { Task } from '../task';

/** Each node of this conductor matching `filter` whose firmware interface has an update pending, locked in turn. */
async function forPendingUpdates(manager: ConductorManager, rings: RingManager, filter: NodeScanFilter, purpose: string,
  act: (task: Task) => Promise<void>): Promise<void> {
  const pending = (node: NodeRecord): boolean => {
    try {
      return manager.ctx.driverFactory.buildDriver(structuredClone(node)).firmware.updatePending?.(node) ?? false;
    } catch {
      return false;
    }
  };
  for (const node of await scanNodes(manager.ctx.db, filter)) {
    if (!pending(node) || !(await rings.isMine(manager.ctx.host, node))) continue;
    try {
      await manager.tasks.run(node.uuid, { purpose, retry: false }, async (task) => {
        if (filter.provisionState && !filter.provisionState.includes(task.node.provision_state ?? '')) return;
        if (task.driver.firmware.updatePending?.(task.node)) await act(task);
      });
    } catch (err) {
      if (err instanceof NodeLocked || isNotFound(err, 'Node')) continue;
      if (err instanceof NoFreeConductorWorker) break;
      log.warning(`Failed ${purpose} for node ${node.uuid}: ${(err as Error).message}`);
    }
  }
}

export async function queryFirmwareUpdateStatus(manager: ConductorManager, rings: RingManager): Promise<void> {
  const filter = { reserved: false, provisionState: [states.CLEANWAIT, states.DEPLOYWAIT, states.SERVICEWAIT] };
  await forPendingUpdates(manager, rings, filter, 'checking async update of firmware component', async (task) => {
    const outcome = await task.driver.firmware.checkUpdate?.(task);
    if (outcome) await actOnHeartbeat(task, outcome, continueNodeDeploy);
  });
}

export async function queryFirmwareUpdateFailed(manager: ConductorManager, rings: RingManager): Promise<void> {
  const filter = { reserved: false, maintenance: true, provisionState: [states.CLEANFAIL, states.DEPLOYFAIL, states.SERVICEFAIL] };
  await forPendingUpdates(manager, rings, filter, 'checking if async update of firmware component failed',
    async (task) => { await task.driver.firmware.discardUpdates?.(task); });
}
