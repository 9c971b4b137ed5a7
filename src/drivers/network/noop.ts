/** Networking handled outside Ironic: VIF calls succeed and nothing is recorded (network/noop.py). */
import type { NetworkInterface } from '../base';
import { staticNetworkData } from './node-network-data';

type NetworkHooks = Pick<NetworkInterface, 'portChanged' | 'portgroupChanged' | 'validatePortCreate' |
  'addProvisioningNetwork' | 'removeProvisioningNetwork' | 'configureTenantNetworks' | 'unconfigureTenantNetworks' |
  'addCleaningNetwork' | 'removeCleaningNetwork'>;

/**
 * The provisioning, cleaning and tenant network hooks of an interface with no network to switch.
 * Flat networking shares them: with one network for everything there is nothing to bind, and VIF
 * records stay until detached, as in Ironic.
 */
export const NO_NETWORK_SWITCHING: NetworkHooks = {
  async portChanged() {},
  async portgroupChanged() {},
  async validatePortCreate() {},
  async addProvisioningNetwork() {},
  async removeProvisioningNetwork() {},
  async configureTenantNetworks() {},
  async unconfigureTenantNetworks() {},
  async addCleaningNetwork() {},
  async removeCleaningNetwork() {},
};

export function createNoopNetwork(): NetworkInterface {
  return {
    kind: 'network', name: 'noop', className: 'NoopNetwork',
    properties: () => ({}),
    async validate() {},
    async vifList() {
      return [];
    },
    async vifAttach() {},
    async vifDetach() {},
    getCurrentVif: () => null,
    // Managed in-band inspection needs no network switch either (noop.py validate_inspection).
    async validateInspection() {},
    getNodeNetworkData: staticNetworkData,
    ...NO_NETWORK_SWITCHING,
  };
}
