/** The switch_to_tenant_network deploy step: off the provisioning network, onto the tenant's. */
import type { DriverTask } from '../base';
import { deploymentError } from './deployment-error';
import { withPowerForNetwork } from '../network/power-for-network';

export async function switchToTenantNetwork(task: DriverTask): Promise<void> {
  try {
    await withPowerForNetwork(task, async () => {
      await task.driver.network.removeProvisioningNetwork(task);
      await task.driver.network.configureTenantNetworks(task);
    });
  } catch (err) {
    throw deploymentError(task, `Error changing node ${task.node.uuid} to tenant networks after deploy. ` +
      `${(err as Error).name}: ${(err as Error).message}`);
  }
}
