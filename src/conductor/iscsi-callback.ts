/**
 * The iscsi deploy's callback (the design's deploy helper, a conductor service): the deploy ramdisk
 * says its disk is exported. Only a node in `wait call-back` with the iscsi deploy, the IQN the
 * conductor gave it and the key from its PXE config is admitted; the deploy then resumes, as after an
 * agent heartbeat. Refusals are logged and leave the deploy waiting (its callback timeout still runs).
 */
import { timingSafeEqual } from 'node:crypto';
import { log } from '../common/log';
import * as states from '../common/states';
import type { Config } from '../conf/config';
import { NotFoundError } from '../db/errors';
import { keyDigest, targetIqn } from '../drivers/deploy/iscsi';
import {
  startDeployHelperServer, type DeployHelperServer, type HelperAnswer, type ReadyCall,
} from '../protocols/deploy-helper/server';
import { resumeDeployAfterCallback } from './continue-deploy';
import type { Task } from './task';
import type { TaskManager } from './task-manager';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function sameDigest(key: string, stored: unknown): boolean {
  if (typeof stored !== 'string') return false;
  const offered = Buffer.from(keyDigest(key));
  const expected = Buffer.from(stored);
  return offered.length === expected.length && timingSafeEqual(offered, expected);
}

/** Why the call is refused for this node, or null when it is admitted. */
function refusal(task: Task, call: ReadyCall): HelperAnswer | null {
  const node = task.node;
  if (node.deploy_interface !== 'iscsi' || node.provision_state !== states.DEPLOYWAIT) {
    return { status: 409, message: `node ${node.uuid} is not waiting for an iSCSI deploy callback` };
  }
  if (!sameDigest(call.key, (node.driver_internal_info ?? {}).iscsi_key_digest)) return { status: 403, message: 'wrong deployment key' };
  if (call.iqn !== targetIqn(node.uuid)) return { status: 400, message: `unexpected target ${call.iqn}` };
  return null;
}

/** The worker part: under the exclusive lock, the ramdisk's address recorded and the deploy resumed. */
async function resume(tasks: TaskManager, task: Task, call: ReadyCall): Promise<void> {
  await tasks.upgrade(task);
  if (refusal(task, call)) return; // changed while the lock was upgraded (aborted, timed out)
  task.node.driver_internal_info = { ...(task.node.driver_internal_info ?? {}), iscsi_ramdisk_address: call.address };
  await task.saveNode();
  await resumeDeployAfterCallback(task);
}

/** Admits or refuses one ramdisk call; the write itself runs in the conductor's worker pool. */
async function iscsiReady(tasks: TaskManager, call: ReadyCall): Promise<HelperAnswer> {
  const refuse = (a: HelperAnswer): HelperAnswer => {
    log.warning(`Refused iSCSI deploy callback from ${call.peer} for deployment ${JSON.stringify(call.deploymentId)}: ${a.message}`);
    return a;
  };
  if (!UUID.test(call.deploymentId)) return refuse({ status: 404, message: 'unknown deployment' });
  try {
    return await tasks.run(call.deploymentId, { purpose: 'iscsi deploy callback', shared: true }, async (task) => {
      const refused = refusal(task, call);
      if (refused) return refuse(refused);
      task.spawnAfter((t) => resume(tasks, t, call));
      log.info(`Deploy ramdisk of node ${task.node.uuid} exported its disk at ${call.address}; writing the image`);
      return { status: 202, message: 'accepted' };
    });
  } catch (err) {
    if (err instanceof NotFoundError) return refuse({ status: 404, message: 'unknown deployment' });
    throw err;
  }
}

/** Listens when the iscsi deploy is enabled ([iscsi]deploy_helper_host/port). */
export async function startIscsiCallbackListener(conf: Config, tasks: TaskManager): Promise<DeployHelperServer | undefined> {
  if (!conf.list('DEFAULT', 'enabled_deploy_interfaces').includes('iscsi')) return undefined;
  const server = await startDeployHelperServer(conf.str('iscsi', 'deploy_helper_host'), conf.int('iscsi', 'deploy_helper_port'),
    (call) => iscsiReady(tasks, call), (err) => log.error(`iSCSI deploy callback failed: ${err.message}`));
  log.info(`iSCSI deploy callback listening on ${conf.str('iscsi', 'deploy_helper_host')}:${server.port}`);
  return server;
}
