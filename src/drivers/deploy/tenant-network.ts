/** The switch_to_tenant_network deploy step: off the provisioning network, onto the tenant's. */
import { InstanceDeployFailure } from '../../common/errors';
import type { DriverTask } from '../base';

export async function switchToTenantNetwork(task: DriverTask): Promise<void> {
  try {
    await task.driver.network.removeProvisioningNetwork(task);
    await task.driver.network.configureTenantNetworks(task);
  } catch (err) {
    throw new InstanceDeployFailure(`Error changing node ${task.node.uuid} to tenant networks after deploy. ` +
      `${(err as Error).name}: ${(err as Error).message}`);
  }
}
