/**
 * Flat networking (network/flat.py): all nodes share one network. With a Neutron configured
 * ([neutron]endpoint_override or auth), the tenant VIFs are bound to the node for provisioning,
 * the tenant, rescue and servicing (binding:host_id = node uuid, vnic_type baremetal, the port's
 * MAC) and unbound after, and cleaning and inspection get ports of their own on
 * [neutron]cleaning_network / inspection_network. Without one, a VIF is bookkeeping on a free port
 * or portgroup and no Neutron call is made (ironic-ts standalone).
 */
import { NetworkError } from '../../common/errors';
import { log } from '../../common/log';
import { neutronConfigured } from '../../common/neutron/client';
import { NeutronApiError } from '../../common/neutron/errors';
import { updateNeutronPort, VNIC_BAREMETAL } from '../../common/neutron/ports';
import type { DriverTask, NetworkInterface, VifAttachInfo } from '../base';
import {
  addServiceNetwork, clientFor, neutronVifAttach, neutronVifDetach, removeServiceNetwork, serviceNetworkId, unbindTenantVifs,
} from './neutron-vifs';
import { checkPortgroupStandalone, checkPortStandalone, neutronPortChanged, neutronPortgroupChanged } from './neutron-port-changes';
import { neutronNetworkData, staticNetworkData } from './node-network-data';
import { NO_NETWORK_SWITCHING } from './noop';
import { currentVif, forgetVif, listVifs, pickFreePortLike, recordVif, tenantVifOf } from './vif-ports';

async function recordAttach(task: DriverTask, vif: VifAttachInfo): Promise<void> {
  await recordVif(task, pickFreePortLike(task, vif), vif.id);
}

/** _bind_flat_ports: every tenant VIF bound to the node; none bound is an error. */
async function bindFlatPorts(task: DriverTask): Promise<void> {
  const bound: string[] = [];
  for (const p of [...task.ports, ...task.portgroups]) {
    const vif = tenantVifOf(p);
    if (!vif) continue;
    try {
      await updateNeutronPort(clientFor(task), vif, { 'binding:host_id': task.node.uuid, 'binding:vnic_type': VNIC_BAREMETAL, mac_address: p.address });
      bound.push(vif);
    } catch (err) {
      if (!(err instanceof NeutronApiError)) throw err;
      const msg = `Unable to set binding:host_id for neutron port ${vif}. Error: ${err.message}`;
      log.error(msg);
      throw new NetworkError(msg);
    }
  }
  if (bound.length === 0) {
    const msg = `Failed to bind any flat network ports for node ${task.node.uuid}`;
    log.error(msg);
    throw new NetworkError(msg);
  }
}

/** _unbind_flat_ports (MACs reset, as unbind_neutron_port does by default). */
function unbindFlatPorts(task: DriverTask): Promise<void> {
  return unbindTenantVifs(task, () => true);
}

/** Runs the Neutron variant when a Neutron is configured, else the standalone one. */
function withNeutron<A extends unknown[]>(neutron: (task: DriverTask, ...a: A) => Promise<void>, standalone: (task: DriverTask, ...a: A) => Promise<void>) {
  return (task: DriverTask, ...a: A): Promise<void> => (neutronConfigured(task.ctx.conf) ? neutron(task, ...a) : standalone(task, ...a));
}

const nothing = async (): Promise<void> => {};

export function createFlatNetwork(): NetworkInterface {
  return {
    kind: 'network', name: 'flat', className: 'FlatNetwork',
    properties: () => ({}),
    validate: withNeutron(async (task) => {
      await serviceNetworkId(task, 'cleaning');
    }, nothing),
    vifList: async (task) => listVifs(task),
    vifAttach: withNeutron(neutronVifAttach, recordAttach),
    vifDetach: withNeutron(neutronVifDetach, forgetVif),
    getCurrentVif: (_task, p) => currentVif(p),
    ...NO_NETWORK_SWITCHING,
    portChanged: withNeutron(neutronPortChanged, checkPortStandalone),
    portgroupChanged: withNeutron(neutronPortgroupChanged, checkPortgroupStandalone),
    addProvisioningNetwork: withNeutron(bindFlatPorts, nothing),
    removeProvisioningNetwork: withNeutron(unbindFlatPorts, nothing),
    configureTenantNetworks: withNeutron(bindFlatPorts, nothing),
    unconfigureTenantNetworks: withNeutron(unbindFlatPorts, nothing),
    addCleaningNetwork: withNeutron((task) => addServiceNetwork(task, 'cleaning', false), nothing),
    removeCleaningNetwork: withNeutron((task) => removeServiceNetwork(task, 'cleaning'), nothing),
    addInspectionNetwork: withNeutron((task) => addServiceNetwork(task, 'inspection', false), nothing),
    removeInspectionNetwork: withNeutron((task) => removeServiceNetwork(task, 'inspection'), nothing),
    addServicingNetwork: withNeutron(bindFlatPorts, nothing),
    removeServicingNetwork: withNeutron(unbindFlatPorts, nothing),
    // No rescuing network: the tenant VIFs that rescue unbound are bound again for the ramdisk.
    addRescuingNetwork: withNeutron(bindFlatPorts, nothing),
    removeRescuingNetwork: withNeutron(unbindFlatPorts, nothing),
    // Standalone, the VIFs are records only: the node's own network_data is all there is.
    getNodeNetworkData: (task) => (neutronConfigured(task.ctx.conf) ? neutronNetworkData(task) : staticNetworkData(task)),
  };
}
