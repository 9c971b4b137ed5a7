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

/** Nodes in `inspect wait` with their driver_internal_info, where inspection cached the BMC addresses. */
export async function inspectWaitNodes(db: Database): Promise<Pick<NodeRecord, 'uuid' | 'driver_internal_info'>[]> {
  const rows = await db.knex('nodes').select('uuid', 'driver_internal_info').where('provision_state', 'inspect wait') as
    Array<Record<string, unknown>>;
  return rows.map((r) => decodeRow<Pick<NodeRecord, 'uuid' | 'driver_internal_info'>>('nodes', r));
}
