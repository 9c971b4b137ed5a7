/** Networking handled outside Ironic: VIF calls succeed and nothing is recorded (network/noop.py). */
import type { NetworkInterface } from '../base';

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
}
