/**
 * The `neutron` network interface (network/neutron.py): the node boots its ramdisks on networks
 * of their own (provisioning, cleaning, rescuing, inspection, servicing; driver_info or
 * [neutron]<process>_network, with their security groups), on ports created for its PXE-enabled
 * ports and bound with their local link information; for the instance those go and the tenant
 * VIFs are bound to the node (portgroups as LAGs with local_group_information).
 */
import { InvalidParameterValue, NetworkError, VifNotAttached } from '../../common/errors';
import { log } from '../../common/log';
import { isSmartnicPort } from '../../common/neutron/smartnic';
import type { DriverTask, NetworkInterface } from '../base';
import {
  addServiceNetwork, neutronVifAttach, neutronVifDetach, plugPortToTenantNetwork, removeServiceNetwork, serviceNetworkId,
  standalonePortLikes, unbindTenantVifs,
} from './neutron-vifs';
import { neutronPortChanged, neutronPortgroupChanged } from './neutron-port-changes';
import { neutronNetworkData } from './node-network-data';
import { currentVif, listVifs } from './vif-ports';

/** configure_tenant_networks: every standalone port and portgroup with a VIF bound; none is an error. */
async function configureTenantNetworks(task: DriverTask): Promise<void> {
  log.info(`Mapping instance ports to ${task.node.uuid}`);
  if (task.ports.length === 0) throw new NetworkError(`No ports are associated with node ${task.node.uuid}`);
  const portLikes = standalonePortLikes(task);
  let withoutVif = 0;
  for (const p of portLikes) {
    try {
      await plugPortToTenantNetwork(task, p);
    } catch (err) {
      if (!(err instanceof VifNotAttached)) throw err;
      withoutVif++;
    }
  }
  if (withoutVif === portLikes.length) throw new NetworkError(`No neutron ports or portgroups are associated with node ${task.node.uuid}`);
}

async function validate(task: DriverTask): Promise<void> {
  await serviceNetworkId(task, 'cleaning');
  await serviceNetworkId(task, 'provisioning');
  if (task.node.disable_power_off && !task.ctx.conf.bool('neutron', 'allow_disabling_power_off')) {
    throw new InvalidParameterValue('Nodes with disable_power_off cannot be used with the neutron network interface (disallowed in the configuration)');
  }
}

export function createNeutronNetwork(): NetworkInterface {
  return {
    kind: 'network', name: 'neutron', className: 'NeutronNetwork',
    properties: () => ({}),
    validate,
    vifList: async (task) => listVifs(task),
    vifAttach: neutronVifAttach,
    vifDetach: neutronVifDetach,
    getCurrentVif: (_task, p) => currentVif(p),
    portChanged: neutronPortChanged,
    portgroupChanged: neutronPortgroupChanged,
    async validatePortCreate() {},
    addProvisioningNetwork: (task) => addServiceNetwork(task, 'provisioning', true),
    removeProvisioningNetwork: (task) => removeServiceNetwork(task, 'provisioning'),
    configureTenantNetworks,
    // A port with no MAC keeps Neutron's (reset_mac only where the Ironic port has an address).
    unconfigureTenantNetworks: (task) => unbindTenantVifs(task, (p) => Boolean(p.address), true),
    // need_power_on: a Smart NIC is powered by its host, whose network changes need its agent.
    needPowerOn: (task) => task.ports.some(isSmartnicPort),
    addCleaningNetwork: (task) => addServiceNetwork(task, 'cleaning', true),
    removeCleaningNetwork: (task) => removeServiceNetwork(task, 'cleaning'),
    async validateInspection(task) {
      await serviceNetworkId(task, 'inspection');
    },
    addInspectionNetwork: (task) => addServiceNetwork(task, 'inspection', true),
    removeInspectionNetwork: (task) => removeServiceNetwork(task, 'inspection'),
    addServicingNetwork: (task) => addServiceNetwork(task, 'servicing', true),
    removeServicingNetwork: (task) => removeServiceNetwork(task, 'servicing'),
    async validateRescue(task) {
      await serviceNetworkId(task, 'rescuing');
    },
    addRescuingNetwork: (task) => addServiceNetwork(task, 'rescuing', true),
    removeRescuingNetwork: (task) => removeServiceNetwork(task, 'rescuing'),
    getNodeNetworkData: neutronNetworkData,
  };
}
