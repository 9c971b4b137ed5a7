/**
 * The Neutron side of the flat and neutron network interfaces (network/common.py
 * NeutronVIFPortIDMixin and neutron.NeutronNetworkInterfaceMixin): VIF attach and detach that
 * keep the Neutron port's MAC in step, binding a tenant VIF to the node, and the per-process
 * service networks (cleaning, provisioning, rescuing, inspection, servicing) whose ports are
 * created for the node and deleted again.
 */
import { FailedToUpdateMacOnPort, NetworkError, VifInvalidForAttach, VifNotAttached } from '../../common/errors';
import { log } from '../../common/log';
import { neutronClient, type NeutronClient } from '../../common/neutron/client';
import { NeutronApiError } from '../../common/neutron/errors';
import { isSmartnicPort, smartnicHostname, VNIC_SMARTNIC, waitForHostAgent, waitForPortStatus } from '../../common/neutron/smartnic';
import {
  addPortsToNetwork, DHCP_CLIENT_ID, localGroupInformation, physnetsOfVif, removePortsFromNetwork, rollbackPorts,
  unbindNeutronPort, updateNeutronPort, updatePortAddress, validateNetwork, validatePortInfo, VNIC_BAREMETAL,
} from '../../common/neutron/ports';
import type { JsonObject } from '../../common/json-value';
import type { PortRecord, PortgroupRecord } from '../../db/models';
import type { DriverTask, VifAttachInfo } from '../base';
import { findByVif, forgetVif, isPortgroup, pickFreePortLike, recordVif, tenantVifOf } from './vif-ports';

type ServiceProcess = 'cleaning' | 'provisioning' | 'rescuing' | 'inspection' | 'servicing';

type PortLike = PortRecord | PortgroupRecord;

export function clientFor(task: DriverTask): NeutronClient {
  return neutronClient(task.ctx.conf);
}

/** The network of a process: driver_info.<process>_network, else [neutron]<process>_network. */
export async function serviceNetworkId(task: DriverTask, process: ServiceProcess): Promise<string> {
  const key = `${process}_network` as const;
  const fromNode = (task.node.driver_info ?? {})[key];
  const name = typeof fromNode === 'string' && fromNode ? fromNode : task.ctx.conf.optStr('neutron', key);
  // The servicing network's name in messages is translated prose in Ironic.
  return validateNetwork(clientFor(task), name, process === 'servicing' ? 'servicing network' : key);
}

function securityGroupsOf(task: DriverTask, process: ServiceProcess): string[] {
  return task.ctx.conf.list('neutron', `${process}_network_security_groups`);
}

/** vif_attach: the VIF goes onto a free port-like (physnet-aware) whose MAC Neutron then takes. */
export async function neutronVifAttach(task: DriverTask, vif: VifAttachInfo): Promise<void> {
  const client = clientFor(task);
  let physnets = new Set<string>();
  if (task.ports.some((p) => p.physical_network !== null)) {
    physnets = await physnetsOfVif(client, vif.id);
    if (physnets.size > 1) {
      const nodePhysnets = new Set(task.ports.flatMap((p) => (p.physical_network ? [p.physical_network] : [])));
      if ([...physnets].filter((p) => nodePhysnets.has(p)).length > 1) {
        throw new VifInvalidForAttach({ node: task.node.uuid, vif: vif.id, reason:
          'Node has ports which map to multiple segments of the routed network to which the VIF is attached. ' +
          'Currently neutron only supports hosts which map to one segment of a routed network' });
      }
    }
  }
  const target = pickFreePortLike(task, vif, { physnets, usable: (p) => validatePortInfo(task, p) });
  if (target.address) {
    try {
      await updatePortAddress(client, vif.id, target.address);
    } catch (err) {
      if (!(err instanceof FailedToUpdateMacOnPort)) throw err;
      throw new NetworkError(`Unable to attach VIF ${vif.id} because Ironic can not update Neutron port ${vif.id} MAC address to match physical MAC address ${target.address}`);
    }
  }
  await recordVif(task, target, vif.id);
  if (task.node.provision_state === 'active') {
    // The updated record (task.ports/portgroups hold it now), with the VIF just saved.
    const saved = isPortgroup(target) ? task.portgroups.find((p) => p.id === target.id) : task.ports.find((p) => p.id === target.id);
    await plugPortToTenantNetwork(task, saved ?? target);
  }
}

/** vif_detach: the record goes; an active (or deleting) node's Neutron port is unbound too. */
export async function neutronVifDetach(task: DriverTask, vifId: string): Promise<void> {
  await forgetVif(task, vifId);
  if (task.node.provision_state === 'active' || task.node.provision_state === 'deleting') {
    await unbindNeutronPort(clientFor(task), vifId);
  }
}

/** plug_port_to_tenant_network: binds the tenant VIF to the node with its switch ports (and bond). */
export async function plugPortToTenantNetwork(task: DriverTask, p: PortLike): Promise<void> {
  const vif = tenantVifOf(p);
  if (!vif) throw new VifNotAttached(`Tenant VIF is not associated with ${isPortgroup(p) ? 'portgroup' : 'port'} ${p.uuid}`);
  const linkInfo = isPortgroup(p)
    ? task.ports.filter((port) => port.portgroup_id === p.id).map((port) => port.local_link_connection ?? {})
    : [p.local_link_connection ?? {}];
  const profile: JsonObject = { local_link_information: linkInfo };
  if (isPortgroup(p)) profile.local_group_information = localGroupInformation(p);
  const attrs: JsonObject = {
    'binding:vnic_type': VNIC_BAREMETAL, 'binding:host_id': task.node.uuid,
    ...(p.address ? { mac_address: p.address } : {}), 'binding:profile': profile,
  };
  const clientId = isPortgroup(p) ? undefined : (p.extra ?? {})['client-id'];
  if (clientId) attrs.extra_dhcp_opts = [{ opt_name: DHCP_CLIENT_ID, opt_value: clientId }];
  const smartnic = !isPortgroup(p) && isSmartnicPort(p);
  if (smartnic) {
    attrs['binding:host_id'] = smartnicHostname(p);
    attrs['binding:vnic_type'] = VNIC_SMARTNIC;
    log.debug(`Setting hostname as host_id in case of Smart NIC, port ${vif}, hostname ${attrs['binding:host_id']}`);
  }
  const client = clientFor(task);
  // Outside the try: a dead agent or a port that stays down fails with its own NetworkError.
  if (smartnic) await waitForHostAgent(client, task.ctx.conf, smartnicHostname(p));
  try {
    await updateNeutronPort(client, vif, attrs);
    if (smartnic) await waitForPortStatus(client, task.ctx.conf, vif, 'ACTIVE');
  } catch (err) {
    if (!(err instanceof NeutronApiError)) throw err;
    throw new NetworkError(`Could not add public network VIF ${vif} to node ${task.node.uuid}, possible network issue. ${err.message}`);
  }
}

/** The ports of the node that are not in a portgroup, then the portgroups (Ironic's tenant order). */
export function standalonePortLikes(task: DriverTask): PortLike[] {
  return [...task.ports.filter((p) => p.portgroup_id === null), ...task.portgroups];
}

/**
 * The tenant VIFs of the node unbound (network/neutron.py unconfigure_tenant_networks; `smartnicWait`:
 * first, for a Smart NIC port, until the agent on its host is alive, as the neutron interface does).
 */
export async function unbindTenantVifs(task: DriverTask, resetMacFor: (p: PortLike) => boolean, smartnicWait = false): Promise<void> {
  log.info(`Unbinding instance ports from node ${task.node.uuid}`);
  for (const p of standalonePortLikes(task)) {
    const vif = tenantVifOf(p);
    if (!vif) continue;
    if (smartnicWait && !isPortgroup(p) && isSmartnicPort(p)) await waitForHostAgent(clientFor(task), task.ctx.conf, smartnicHostname(p));
    await unbindNeutronPort(clientFor(task), vif, resetMacFor(p));
  }
}

async function recordServiceVifs(task: DriverTask, process: ServiceProcess, vifs: Map<string, string> | null): Promise<void> {
  const field = `${process}_vif_port_id`;
  for (const port of [...task.ports]) {
    const internal = { ...(port.internal_info ?? {}) };
    if (vifs) {
      const vif = vifs.get(port.uuid);
      if (!vif) continue;
      internal[field] = vif;
    } else {
      if (!Object.prototype.hasOwnProperty.call(internal, field)) continue;
      delete internal[field];
    }
    await task.updatePort(port, { internal_info: internal });
  }
}

/** _add_network / _add_service_network: stale ports removed, new ones created, recorded per port. */
export async function addServiceNetwork(task: DriverTask, process: ServiceProcess, withSecurityGroups: boolean): Promise<void> {
  const client = clientFor(task);
  const networkId = await serviceNetworkId(task, process);
  const addAllPorts = task.ctx.conf.bool('neutron', 'add_all_ports');
  await rollbackPorts(client, task, networkId, addAllPorts);
  log.info(`Adding ${process} network to node ${task.node.uuid}`);
  const vifs = await addPortsToNetwork(client, task, networkId, {
    conf: task.ctx.conf, addAllPorts,
    ...(withSecurityGroups ? { securityGroups: securityGroupsOf(task, process) } : {}),
  });
  await recordServiceVifs(task, process, vifs);
}

/** _remove_network / _remove_service_network. */
export async function removeServiceNetwork(task: DriverTask, process: ServiceProcess): Promise<void> {
  const networkId = await serviceNetworkId(task, process);
  log.info(`Removing ports from ${process} network for node ${task.node.uuid}`);
  await removePortsFromNetwork(clientFor(task), task, networkId, task.ctx.conf.bool('neutron', 'add_all_ports'));
  await recordServiceVifs(task, process, null);
}
