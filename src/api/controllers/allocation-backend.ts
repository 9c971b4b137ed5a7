/**
 * Where allocation create/delete run: the conductor's createAllocation/destroyAllocation when its RPC
 * API offers them, else the allocation processing in src/conductor/allocations.ts in this process.
 */
import type { AllocationRecord } from '../../db/models';
import * as processing from '../../conductor/allocations';
import type { ApiContext } from '../state';

export interface AllocationBackend {
  create(values: Partial<AllocationRecord>, nodeId: number | null): Promise<AllocationRecord>;
  destroy(allocation: AllocationRecord): Promise<void>;
}

interface AllocationRpc {
  createAllocation?(values: Partial<AllocationRecord>, nodeId: number | null): Promise<AllocationRecord>;
  destroyAllocation?(allocationUuid: string): Promise<void>;
}

export function allocationBackend(ctx: ApiContext): AllocationBackend {
  const rpc = ctx.state.deps.conductor as unknown as AllocationRpc;
  if (typeof rpc.createAllocation === 'function' && typeof rpc.destroyAllocation === 'function') {
    return {
      create: (values, nodeId) => rpc.createAllocation!(values, nodeId),
      destroy: (allocation) => rpc.destroyAllocation!(allocation.uuid),
    };
  }
  const conf = ctx.state.deps.conf;
  const local: processing.AllocationContext = {
    db: ctx.state.deps.db,
    host: conf.str('DEFAULT', 'host'),
    retryAttempts: conf.int('conductor', 'node_locked_retry_attempts'),
    retryIntervalMs: conf.int('conductor', 'node_locked_retry_interval') * 1000,
  };
  return {
    create: (values, nodeId) => processing.createAllocation(local, values, nodeId),
    destroy: (allocation) => processing.destroyAllocation(local, allocation),
  };
}
