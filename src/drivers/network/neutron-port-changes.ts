/**
 * NeutronVIFPortIDMixin.port_changed / portgroup_changed (network/common.py), for the flat and
 * neutron interfaces: a port's new MAC goes to its tenant VIF's Neutron port, a changed InfiniBand
 * client-id to that port's DHCP options, and ports that would stand alone inside a portgroup
 * that does not support standalone ports are refused with 409.
 */
import { Conflict } from '../../common/errors';
import { log } from '../../common/log';
import { DHCP_CLIENT_ID, updatePortAddress } from '../../common/neutron/ports';
import type { PortRecord, PortgroupRecord } from '../../db/models';
import type { DriverTask } from '../base';
import { dhcpProviderFor } from '../boot/pxe-settings';
import { clientFor } from './neutron-vifs';
import { tenantVifOf } from './vif-ports';

const changed = <T extends object>(changes: Partial<T>, field: keyof T): boolean => Object.hasOwn(changes, field);

const clientIdOf = (p: { extra: PortRecord['extra'] }): string | null => {
  const id = (p.extra ?? {})['client-id'];
  return typeof id === 'string' ? id : null;
};

/** A changed client-id goes to the VIF's DHCP options (a null value removes the option). */
async function syncClientId(task: DriverTask, port: PortRecord, after: PortRecord, vif: string | null): Promise<void> {
  const updated = clientIdOf(after);
  if (clientIdOf(port) === updated) return;
  if (vif) {
    await dhcpProviderFor(task.ctx.conf).updatePortDhcpOpts?.(vif, [{ opt_name: DHCP_CLIENT_ID, opt_value: updated }]);
  } else if (task.node.instance_uuid) {
    log.warning(`No VIF found for instance ${task.node.instance_uuid} port ${port.uuid} when attempting to update port client-id.`);
  }
}

/** Why a port cannot stand alone (pxe_enabled, an attached VIF); empty when it can. */
function standaloneReasons(pxeEnabled: boolean | null, vif: string | null, pxeWording: string, vifWording: string): string[] {
  return [...(pxeEnabled ? [pxeWording] : []), ...(vif ? [`VIF ${vif} ${vifWording}`] : [])];
}

/** The portgroup check alone (flat without a Neutron: there is no Neutron port to update). */
export async function checkPortStandalone(task: DriverTask, port: PortRecord, changes: Partial<PortRecord>): Promise<void> {
  const after: PortRecord = { ...port, ...changes };
  const vif = tenantVifOf(after);
  const group = after.portgroup_id === null ? undefined : task.portgroups.find((pg) => pg.id === after.portgroup_id);
  if (!group || !(changed(changes, 'pxe_enabled') || changed(changes, 'portgroup_id') || vif)) return;
  if (group.standalone_ports_supported) return;
  const reasons = standaloneReasons(after.pxe_enabled, vif, "'pxe_enabled' was set to True", 'is attached to the port');
  if (reasons.length) {
    throw new Conflict(`Port group ${group.uuid} doesn't support standalone ports. This port ${port.uuid} cannot be ` +
      ` a member of that port group because of: ${reasons.join(', ')}`);
  }
}

export async function neutronPortChanged(task: DriverTask, port: PortRecord, changes: Partial<PortRecord>): Promise<void> {
  const after: PortRecord = { ...port, ...changes };
  const vif = tenantVifOf(after);
  if (changed(changes, 'address') && vif && after.address) await updatePortAddress(clientFor(task), vif, after.address);
  if (changed(changes, 'extra')) await syncClientId(task, port, after, vif);
  await checkPortStandalone(task, port, changes);
}

/** The member-port check alone (flat without a Neutron). */
export async function checkPortgroupStandalone(task: DriverTask, pg: PortgroupRecord, changes: Partial<PortgroupRecord>): Promise<void> {
  const after: PortgroupRecord = { ...pg, ...changes };
  if (!changed(changes, 'standalone_ports_supported') || after.standalone_ports_supported) return;
  for (const p of task.ports.filter((port) => port.portgroup_id === pg.id)) {
    const reasons = standaloneReasons(p.pxe_enabled, tenantVifOf(p), "'pxe_enabled' is set to True", 'is attached to this port');
    if (reasons.length) {
      throw new Conflict(`standalone_ports_supported can not be set to False, because the port group ${pg.uuid} ` +
        `contains port with ${reasons.join(', ')}`);
    }
  }
}

export async function neutronPortgroupChanged(task: DriverTask, pg: PortgroupRecord, changes: Partial<PortgroupRecord>): Promise<void> {
  const after: PortgroupRecord = { ...pg, ...changes };
  // A portgroup's address is optional: removing it leaves the Neutron port alone.
  const vif = tenantVifOf(after);
  if (changed(changes, 'address') && after.address && vif) await updatePortAddress(clientFor(task), vif, after.address);
  await checkPortgroupStandalone(task, pg, changes);
}
