/**
 * The conductor's checks on port and portgroup writes (manager.create_port, update_port and
 * update_portgroup, utils.validate_port_physnet): which changes a node's state allows, and the
 * rule that a portgroup's members share one physical network.
 */
import { Conflict, InvalidState, PortgroupNotEmpty, PortgroupPhysnetInconsistent } from '../common/errors';
import * as states from '../common/states';
import type { Database } from '../db/connection';
import type { NodeRecord, PortRecord, PortgroupRecord } from '../db/models';
import { memberPhysnets, portgroupHasPorts, portgroupUuidOf } from '../db/repositories/conductor-port-queries';

/** States in which a node's ports may change their connectivity or a portgroup its node. */
const ASSOCIATION_STATES = [states.ENROLL, states.INSPECTING, states.INSPECTWAIT, states.MANAGEABLE];

/** Port fields that change how the node is wired (update_port's connectivity_attr). */
const CONNECTIVITY_FIELDS = ['portgroup_id', 'pxe_enabled', 'local_link_connection', 'physical_network'] as const;

function mayRewire(node: NodeRecord): boolean {
  return ASSOCIATION_STATES.includes(node.provision_state ?? '') || Boolean(node.maintenance);
}

/** update_port: no new address for a deployed node, and no rewiring outside the association states. */
export function checkPortUpdate(node: NodeRecord, port: PortRecord, changes: Partial<PortRecord>): void {
  if ((node.provision_state === states.ACTIVE || node.instance_uuid) && 'address' in changes && !node.maintenance) {
    throw new InvalidState(`Cannot update hardware address for port ${port.uuid} as node ${node.uuid} is active or ` +
      'has instance UUID assigned');
  }
  if (CONNECTIVITY_FIELDS.some((field) => Object.hasOwn(changes, field)) && !mayRewire(node)) {
    throw new InvalidState(`Port ${port.uuid} can not have any connectivity attributes ` +
      `(${CONNECTIVITY_FIELDS.join(', ')}) updated unless node ${node.uuid} is in a ${ASSOCIATION_STATES.join(', ')} ` +
      `state or in maintenance mode. The current state is ${node.provision_state}.`);
  }
}

/**
 * validate_port_physnet, for a port being created (`changed` = every field given) or updated (the
 * fields that change): a member port must share its portgroup's physical network.
 */
export async function validatePortPhysnet(db: Database, port: Partial<PortRecord>, changed: readonly string[]): Promise<void> {
  if (!port.portgroup_id) return;
  if (!changed.includes('portgroup_id') && !changed.includes('physical_network')) return;
  const physnets = await memberPhysnets(db, port.portgroup_id, port.id ?? null);
  if (physnets.size === 0) return;
  const pgUuid = await portgroupUuidOf(db, port.portgroup_id);
  if (physnets.size > 1) {
    throw new PortgroupPhysnetInconsistent({ portgroup: pgUuid, physical_networks: [...physnets].join(', ') });
  }
  const [groupPhysnet] = physnets;
  const portPhysnet = port.physical_network ?? null;
  if (portPhysnet !== groupPhysnet) {
    throw new Conflict(`Port with physical network ${portPhysnet ?? 'None'} cannot become a member of port group ` +
      `${pgUuid} which has ports in physical network ${groupPhysnet ?? 'None'}.`);
  }
}

/** update_portgroup: a portgroup moves to another node only in the association states, and only empty. */
export async function checkPortgroupMove(db: Database, node: NodeRecord, pg: PortgroupRecord): Promise<void> {
  if (!mayRewire(node)) {
    throw new InvalidState(`Portgroup ${pg.uuid} can not be associated to node ${node.uuid} unless the node is in a ` +
      `${ASSOCIATION_STATES.join(', ')} state or in maintenance mode.`);
  }
  if (await portgroupHasPorts(db, pg.id)) {
    throw new PortgroupNotEmpty(`Portgroup ${pg.uuid} can not be associated with node ${node.uuid} because there are ` +
      'ports associated with this portgroup.');
  }
}
