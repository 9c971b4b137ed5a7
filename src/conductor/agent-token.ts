/**
 * The agent token a ramdisk receives at lookup (conductor/manager.py get_node_with_token): handed
 * out once. A node that already holds one (an earlier lookup, a token pregenerated into virtual
 * media, a fast-track agent still running) answers "******", which no heartbeat can match, so
 * whoever knows a MAC address cannot take over the deploy, clean or rescue of a waiting node.
 */
import { randomBytes } from 'node:crypto';
import { log } from '../common/log';
import type { NodeRecord } from '../db/models';
import * as nodes from '../db/repositories/nodes';
import type { Task } from './task';
import type { TaskManager } from './task-manager';

const WITHHELD_TOKEN = '******';

function hasToken(node: NodeRecord): boolean {
  const token = (node.driver_internal_info ?? {}).agent_secret_token;
  return token !== undefined && token !== null;
}

/** The node as lookup returns it when its token was handed out before. */
function withheld(task: Task): NodeRecord {
  log.warning(`An agent token generation request is being refused as one is already present for node ${task.node.uuid}`);
  return { ...task.node, driver_internal_info: { ...(task.node.driver_internal_info ?? {}), agent_secret_token: WITHHELD_TOKEN } };
}

export function getNodeWithToken(tasks: TaskManager, nodeUuid: string): Promise<NodeRecord> {
  return tasks.run(nodeUuid, { purpose: 'generate_token', shared: true }, async (task) => {
    if (hasToken(task.node)) return withheld(task);
    // No retry, as Ironic: concurrent lookups must not queue up all thinking they may issue it.
    await tasks.upgrade(task, false);
    // The upgrade reloaded the node: a lookup that won the lock meanwhile has issued the token.
    if (hasToken(task.node)) return withheld(task);
    const { agent_secret_token_pregenerated: _pregenerated, ...info } = task.node.driver_internal_info ?? {};
    task.node.driver_internal_info = { ...info, agent_secret_token: randomBytes(96).toString('base64url').slice(0, 128) };
    await task.saveNode();
    return nodes.find(task.ctx.db, task.node.id);
  });
}
