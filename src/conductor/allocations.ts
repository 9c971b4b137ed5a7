/**
 * Allocation processing as Ironic's conductor does it (conductor/allocations.py and the manager's
 * create_allocation/destroy_allocation): an allocation is stored in state "allocating", then a
 * suitable available node is picked and reserved in the background; backfilling links a named
 * active node synchronously. Nodes are locked through the conductor's TaskManager.
 */
import { randomInt } from 'node:crypto';
import { AllocationFailed, InvalidState, NodeLocked, withCode } from '../common/errors';
import { UPDATE_ALLOWED_STATES } from '../common/states';
import type { Database } from '../db/connection';
import { DbError, isNotFound } from '../db/errors';
import type { AllocationRecord, NodeRecord, NodeWithRelations } from '../db/models';
import * as allocationsRepo from '../db/repositories/allocations';
import { traitNames } from '../db/repositories/node-traits';
import * as nodesRepo from '../db/repositories/nodes';
import { log } from '../common/log';
import type { Task } from './task';
import type { AcquireOptions, TaskManager } from './task-manager';

export interface AllocationContext {
  db: Database;
  tasks: TaskManager;
  conductorId?: number | null;
  /** Extra attempts over locked nodes (node_locked_retry_attempts) and the pause between them (ms). */
  retryAttempts?: number;
  retryIntervalMs?: number;
}

function hasTraits(own: readonly string[], traits: string[]): boolean {
  return traits.every((t) => own.includes(t));
}

/** A locked node with its trait names, as the suitability checks read it. */
interface LockedNode {
  node: NodeRecord;
  traits: string[];
}

/** Runs `fn` on the node under an exclusive lock (no driver needed). */
async function withLockedNode<T>(ctx: AllocationContext, nodeId: number, opts: AcquireOptions,
  fn: (locked: LockedNode) => Promise<T>): Promise<T> {
  return ctx.tasks.run(nodeId, { ...opts, loadDriver: false }, async (task: Task) =>
    fn({ node: task.node, traits: await traitNames(ctx.db, task.node.id) }));
}


async function markFailed(ctx: AllocationContext, allocation: AllocationRecord, reason: string): Promise<void> {
  try {
    await allocationsRepo.update(ctx.db, allocation.id, { node_id: null, state: 'error', last_error: reason }, false);
  } catch (err) {
    log.debug(`Not saving failed allocation ${allocation.uuid}: ${String(err)}`);
  }
}

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

async function candidateNodes(ctx: AllocationContext, a: AllocationRecord): Promise<NodeWithRelations[]> {
  const candidates = (a.candidate_nodes ?? []) as string[];
  let nodes = await nodesRepo.list(ctx.db, {
    resource_class: a.resource_class ?? undefined, provision_state: 'available', associated: false,
    with_power_state: true, maintenance: false,
    ...(candidates.length ? { uuid_in: candidates } : {}),
    ...(a.owner ? { project: a.owner } : {}),
  });
  if (nodes.length === 0) {
    const error = candidates.length
      ? `none of the requested nodes are available and match the resource class ${a.resource_class}`
      : `no available nodes match the resource class ${a.resource_class}`;
    throw new AllocationFailed({ uuid: a.uuid, error });
  }
  const traits = (a.traits ?? []) as string[];
  if (traits.length) {
    nodes = nodes.filter((n) => hasTraits(n.traits.map((t) => t.trait), traits));
    if (nodes.length === 0) {
      throw new AllocationFailed({ uuid: a.uuid, error: `no suitable nodes have the requested traits ${traits.join(', ')}` });
    }
  }
  shuffle(nodes);
  const named = a.name ? nodes.findIndex((n) => n.name === a.name) : -1;
  if (named > 0) nodes.unshift(...nodes.splice(named, 1));
  return nodes;
}

function stillSuitable({ node, traits: own }: LockedNode, a: AllocationRecord): boolean {
  if (node.maintenance || node.instance_uuid || node.provision_state !== 'available') return false;
  if (node.resource_class !== a.resource_class) return false;
  const traits = (a.traits ?? []) as string[];
  return !traits.length || hasTraits(own, traits);
}

/** Links the locked node to the allocation if it still fits; false when it no longer does. */
async function allocateLocked(ctx: AllocationContext, a: AllocationRecord, locked: LockedNode): Promise<boolean> {
  if (!stillSuitable(locked, a)) return false;
  try {
    await allocationsRepo.update(ctx.db, a.id, { node_id: locked.node.id, state: 'active' });
  } catch (err) {
    if (err instanceof DbError && err.kind === 'NodeAssociated') return false;
    throw err;
  }
  log.info(`Node ${locked.node.uuid} has been successfully reserved for allocation ${a.uuid}`);
  return true;
}

/** One pass over the candidates; returns the nodes that were locked (to retry). */
async function tryNodes(ctx: AllocationContext, a: AllocationRecord, nodes: NodeWithRelations[]): Promise<NodeWithRelations[] | null> {
  const locked: NodeWithRelations[] = [];
  for (const candidate of nodes) {
    try {
      // The whole list is retried here rather than each node in the task manager, not to wait on one node.
      if (await withLockedNode(ctx, candidate.id, { retry: false }, (n) => allocateLocked(ctx, a, n))) return null;
    } catch (err) {
      if (err instanceof NodeLocked) locked.push(candidate);
      else if (!isNotFound(err, 'Node')) throw err;
    }
  }
  return locked;
}

/** do_allocate: never throws; failures end in state "error" with last_error. */
export async function doAllocate(ctx: AllocationContext, a: AllocationRecord): Promise<void> {
  try {
    let nodes = await candidateNodes(ctx, a);
    const attempts = 1 + (ctx.retryAttempts ?? 3);
    for (let attempt = 0; attempt < attempts; attempt++) {
      const locked = await tryNodes(ctx, a, nodes);
      if (locked === null) return;
      nodes = locked;
      const error = nodes.length ? `could not reserve any of ${nodes.length} suitable nodes`
        : 'all nodes were filtered out during reservation';
      if (!nodes.length || attempt === attempts - 1) throw new AllocationFailed({ uuid: a.uuid, error });
      await new Promise((r) => setTimeout(r, ctx.retryIntervalMs ?? 1000));
    }
  } catch (err) {
    if (err instanceof AllocationFailed) {
      log.error(err.message);
      await markFailed(ctx, a, err.message);
    } else {
      log.error(`Unexpected exception during processing of allocation ${a.uuid}: ${String(err)}`);
      await markFailed(ctx, a, `Unexpected exception during allocation: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}

async function backfill(ctx: AllocationContext, a: AllocationRecord, nodeId: number): Promise<AllocationRecord> {
  return withLockedNode(ctx, nodeId, { purpose: 'allocation backfilling' }, async ({ node, traits: own }) => {
    const errors: string[] = [];
    if (node.provision_state !== 'active') {
      errors.push(`Node must be in the "active" state, but the current state is "${node.provision_state}"`);
    }
    if (a.resource_class && node.resource_class !== a.resource_class) {
      errors.push(`Resource class ${node.resource_class} does not match the requested resource class ${a.resource_class}`);
    }
    const traits = (a.traits ?? []) as string[];
    if (traits.length && !hasTraits(own, traits)) {
      errors.push(`List of traits ${JSON.stringify(own)} does not match the requested traits ${JSON.stringify(traits)}`);
    }
    const candidates = (a.candidate_nodes ?? []) as string[];
    if (candidates.length && !candidates.includes(node.uuid)) {
      errors.push(`Candidate nodes must be empty or contain the target node, but got ${JSON.stringify(candidates)}`);
    }
    if (errors.length) {
      // AllocationFailed is a 500 in Ironic; a node that does not fit the request is the client's 400.
      throw withCode(new AllocationFailed({ uuid: a.uuid, error: `Cannot backfill an allocation for node ${node.uuid}: ${errors.join('; ')}` }), 400);
    }
    return allocationsRepo.update(ctx.db, a.id, { node_id: node.id, state: 'active' });
  });
}

/**
 * create_allocation: stores the allocation ("allocating"); with `nodeId` backfills synchronously
 * (failures are recorded on the allocation and rethrown), otherwise processes it in the background.
 */
export async function createAllocation(ctx: AllocationContext, values: Partial<AllocationRecord>, nodeId: number | null):
  Promise<AllocationRecord> {
  const created = await allocationsRepo.create(ctx.db, {
    ...values, node_id: null, state: 'allocating', conductor_affinity: ctx.conductorId ?? null,
  });
  if (nodeId !== null) {
    try {
      return await backfill(ctx, created, nodeId);
    } catch (err) {
      await markFailed(ctx, created, err instanceof Error ? err.message : String(err));
      throw err;
    }
  }
  setImmediate(() => { void doAllocate(ctx, created); });
  return created;
}

/** destroy_allocation: a node that is active or mid-operation (outside maintenance) keeps its allocation. */
export async function destroyAllocation(ctx: AllocationContext, a: AllocationRecord): Promise<void> {
  if (a.node_id === null) {
    await allocationsRepo.destroy(ctx.db, a.id);
    return;
  }
  await withLockedNode(ctx, a.node_id, { purpose: 'allocation deletion' }, async ({ node }) => {
    if (!node.maintenance) {
      if (node.target_provision_state && !UPDATE_ALLOWED_STATES.includes(node.provision_state ?? '')) {
        throw new InvalidState(`Cannot remove allocation ${a.uuid} for node ${node.uuid}, because the node is in state ` +
          `${node.provision_state} where updates are not allowed (and maintenance mode is off)`);
      }
      if (node.provision_state === 'active') {
        throw new InvalidState(`Cannot remove allocation ${a.uuid} for node ${node.uuid}, because the node is active ` +
          '(and maintenance mode is off)');
      }
    }
    await allocationsRepo.destroy(ctx.db, a.id);
  });
}
