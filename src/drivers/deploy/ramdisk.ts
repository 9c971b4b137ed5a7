/**
 * ramdisk deploy (drivers/modules/ramdisk.py RamdiskDeploy): nothing is written to disk; the
 * instance's kernel/ramdisk (instance_info kernel/ramdisk) is network-booted through the boot
 * interface, which must support ramdisk boot. Cleaning through the agent is not offered here.
 */
import { InvalidParameterValue } from '../../common/errors';
import { log } from '../../common/log';
import * as states from '../../common/states';
import type { DeployInterface, DriverTask } from '../base';
import { parseCapabilities } from '../boot/pxe-node';
import { coreDeployStep, declareSteps } from '../declared-steps';
import { OUT_OF_BAND_CLEAN_AND_SERVICE } from './out-of-band-only';
import { populateStorageDriverInternalInfo, tearDownStorageConfiguration } from '../storage/boot-volume';
import { withPowerForNetwork } from '../network/power-for-network';

/** Boot interfaces whose prepareInstance can boot an instance ramdisk (Ironic's 'ramdisk_boot' capability). */
const RAMDISK_BOOT = new Set(['pxe', 'ipxe', 'http', 'http-ipxe', 'fake']);

/** manager_utils.node_power_action, as far as a deploy interface needs it. */
async function powerAction(task: DriverTask, state: string): Promise<void> {
  await task.driver.power.setPowerState(task, state);
  task.node.power_state = state;
  task.node.target_power_state = null;
  await task.saveNode();
}

async function deploy(task: DriverTask): Promise<null> {
  const ii = task.node.instance_info ?? {};
  if ('configdrive' in ii) {
    log.warning(`A configuration drive is present in the ramdisk deployment request of node ${task.node.uuid} with boot ` +
      `interface ${task.node.boot_interface}. The configuration drive will be ignored for this deployment.`);
  }
  await powerAction(task, states.POWER_OFF);
  // The tenant network must reach the boot location before the instance ramdisk boots.
  await withPowerForNetwork(task, () => task.driver.network.configureTenantNetworks(task));
  // Switches the network boot config to the instance ramdisk and makes the node boot from it.
  await task.driver.boot.prepareInstance(task);
  await powerAction(task, states.POWER_ON);
  log.info(`Deployment setup for node ${task.node.uuid} done`);
  return null;
}

export function createRamdiskDeploy(): DeployInterface {
  return {
    kind: 'deploy', name: 'ramdisk', className: 'RamdiskDeploy',
    properties: () => ({}),
    async validate(task) {
      if (!RAMDISK_BOOT.has(task.driver.boot.name)) {
        throw new InvalidParameterValue('Invalid configuration: The boot interface in use does not support deployment ' +
          'of a ramdisk. Use a different boot interface');
      }
      await task.driver.boot.validate(task);
    },
    ...declareSteps('deploy', [coreDeployStep(deploy)]),
    async tearDown(task) {
      await powerAction(task, states.POWER_OFF);
      await task.driver.storage.detachVolumes(task);
      await tearDownStorageConfiguration(task);
      await task.driver.network.unconfigureTenantNetworks(task);
      return states.DELETED;
    },
    async prepare(task) {
      await populateStorageDriverInternalInfo(task);
      if (task.node.provision_state === states.DEPLOYING) {
        await task.driver.network.validate(task);
        await powerAction(task, states.POWER_OFF);
        await task.driver.storage.attachVolumes(task);
      }
      const ii = task.node.instance_info ?? {};
      const caps = parseCapabilities(ii.capabilities);
      if (caps.boot_option !== 'ramdisk') {
        // Ironic resets a mismatching boot_option so the boot interface boots the ramdisk.
        task.node.instance_info = { ...ii, capabilities: { ...caps, boot_option: 'ramdisk' } };
        await task.saveNode();
      }
    },
    async cleanUp(task) {
      await task.driver.boot.cleanUpRamdisk(task, 'deploy');
      await task.driver.boot.cleanUpInstance(task);
    },
    async takeOver(task) {
      await task.driver.boot.prepareInstance(task);
    },
    ...OUT_OF_BAND_CLEAN_AND_SERVICE,
    async heartbeat() {},
  };
}
