/** The queries of the inspection lookup (inspect_utils.lookup_node): nodes by port MACs and by cached BMC addresses. */
import type { Database } from '../connection';
import { decodeRow } from '../codec';
import type { NodeRecord } from '../models';

/** The distinct nodes owning ports with these MACs (Node.get_by_port_addresses before its one-row check). */
export async function nodeUuidsByPortAddresses(db: Database, macs: string[]): Promise<string[]> {
  const rows = await db.knex('nodes').distinct('nodes.uuid').join('ports', 'ports.node_id', 'nodes.id')
    .whereIn('ports.address', macs) as Array<{ uuid: string }>;
  return rows.map((r) => r.uuid);
}

/** The driver_internal_info key where inspection caches the node's BMC addresses for this lookup. */
export const LOOKUP_CACHE_FIELD = 'lookup_bmc_addresses';

/** Nodes in `inspect wait` whose cached BMC addresses include any of these. */
export async function inspectWaitNodesByBmc(db: Database, bmc: string[]): Promise<string[]> {
  const rows = await db.knex('nodes').select('uuid', 'driver_internal_info').where('provision_state', 'inspect wait') as
    Array<Record<string, unknown>>;
  return rows.map((r) => decodeRow<Pick<NodeRecord, 'uuid' | 'driver_internal_info'>>('nodes', r))
    .filter((n) => {
      const cached = (n.driver_internal_info ?? {})[LOOKUP_CACHE_FIELD];
      return Array.isArray(cached) && cached.some((a) => bmc.includes(String(a)));
    })
    .map((n) => n.uuid);
}
