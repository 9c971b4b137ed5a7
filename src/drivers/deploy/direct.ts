/**
 * The `direct` deploy (agent.py AgentDeploy): the node boots the agent ramdisk (boot
 * interface prepare_ramdisk + reboot, then `wait call-back`), the agent heartbeats, and the
 * deploy steps drive it: deploy (100), write_image (80, asynchronous in the agent),
 * prepare_instance_boot (60), tear_down_agent (40), switch_to_tenant_network (30),
 * boot_instance (20). Before the ramdisk boots, prepare() caches the image on the conductor
 * with the deploy request's extra_data injected and publishes it over HTTP. Cleaning is in
 * band: the agent is booted for it and its clean steps join the driver's (agent/clean-*.ts).
 */
import { InstanceDeployFailure, InvalidParameterValue, MissingParameterValue } from '../../common/errors';
import { log } from '../../common/log';
import * as states from '../../common/states';
import { isGlanceImage } from '../../images/glance/image-ref';
import type { DeployInterface, DriverTask, JsonObject } from '../base';
import { coreDeployStep, declareSteps, type DeclaredStep, type UndeclaredStep } from '../declared-steps';
import { AgentClient } from '../agent/client';
import { prepareInstanceBoot, tearDownAgent, updateImageType, writeImage } from '../agent/deploy-steps';
import { ironicApiUrl } from '../agent/agent-options';
import { isFastTrack } from '../agent/fast-track';
import { agentDeployCleanSteps, isCachedCleanStep } from '../agent/clean-steps';
import { executeInbandStep } from '../agent/inband-steps';
import { agentHeartbeat, refreshDeploySteps } from '../agent/heartbeat';
import { prepareInbandCleaning, tearDownInbandCleaning } from '../agent/inband-cleaning';
import {
  addAdminPassToConfigdrive, buildInstanceInfoForDeploy, destroyHttpInstanceImages, imageDownloadSource, injectableExtraData, servedLocally,
} from '../agent/instance-image';
import { prepareInbandService, tearDownInbandService } from '../agent/inband-service';
import { agentServiceSteps, isAgentServiceStep } from '../agent/service-steps';
import { deploymentError } from './deployment-error';
import { switchToTenantNetwork } from './tenant-network';
import { lookupTable } from '../../common/own-keys';
import { populateStorageDriverInternalInfo, tearDownStorageConfiguration } from '../storage/boot-volume';
import { powerOnNodeIfNeeded, restorePowerStateIfNeeded, withPowerForNetwork } from '../network/power-for-network';

const PROPERTIES: Record<string, string> = lookupTable({
  deploy_kernel: 'UUID (from Glance) of the deployment kernel. Required.',
  deploy_ramdisk: 'UUID (from Glance) of the ramdisk with agent that is used at deploy time. Required.',
  image_http_proxy: 'URL of a proxy server for HTTP connections. Optional.',
  image_https_proxy: 'URL of a proxy server for HTTPS connections. Optional.',
  image_no_proxy: 'A comma-separated list of host names, IP addresses and domain names (with optional :port) that will ' +
    'be excluded from proxying. To denote a domain name, use a dot to prefix the domain name. This value will be ignored ' +
    'if ``image_http_proxy`` and ``image_https_proxy`` are not specified. Optional.',
  image_download_source: 'Specifies whether direct deploy interface should try to use the image source directly or if ' +
    'ironic should cache the image on the conductor and serve it from ironic\'s own HTTP server. Accepted values are ' +
    '"swift", "http" and "local". Optional.',
});

const VALID_IMAGE_TYPES = ['partition', 'whole-disk'];

const manageBoot = (task: DriverTask) => task.ctx.conf.bool('agent', 'manage_agent_boot');

function validateImageInfo(task: DriverTask): void {
  const node = task.node;
  const ii = node.instance_info ?? {};
  const source = ii.image_source;
  if (!source) {
    throw new MissingParameterValue(`Node ${node.uuid} failed to validate deploy image info. Some parameters were missing. ` +
      "Missing are: ['instance_info.image_source']");
  }
  if (ii.image_type && !VALID_IMAGE_TYPES.includes(String(ii.image_type))) {
    throw new InvalidParameterValue(`Invalid image_type "${String(ii.image_type)}", valid are ${VALID_IMAGE_TYPES.join(', ')}`);
  }
  // Glance records carry the checksums; file images are hashed when cached.
  if (!isGlanceImage(source) && !String(source).startsWith('file://')) {
    const algo = ii.image_os_hash_algo;
    const value = ii.image_os_hash_value;
    if (Boolean(algo) !== Boolean(value) || (!value && !ii.image_checksum)) {
      throw new MissingParameterValue('image_source\'s "image_checksum", or "image_os_hash_algo" and "image_os_hash_value" ' +
        `must be provided in instance_info for node ${node.uuid}`);
    }
  }
  const download = imageDownloadSource(task);
  if (!['swift', 'http', 'local'].includes(download)) {
    throw new InvalidParameterValue(`Invalid value for image_download_source: "${download}". Valid values are swift, http or local.`);
  }
  if (servedLocally(task, false)) {
    const missing = [['[deploy]http_url', task.ctx.conf.optStr('deploy', 'http_url')],
      ['[deploy]http_root', task.ctx.conf.optStr('deploy', 'http_root')]].filter(([, v]) => !v).map(([k]) => `'${k}'`);
    if (missing.length) {
      throw new MissingParameterValue(`Node ${node.uuid} failed to validate http provisoning. Some configuration options ` +
        `were missing. Missing are: [${missing.join(', ')}]`);
    }
  }
}

/** CustomAgentDeploy.prepare for a deploy: provisioning network, image, agent boot. */
async function prepare(task: DriverTask): Promise<void> {
  const node = task.node;
  await populateStorageDriverInternalInfo(task);
  if (node.provision_state === states.DEPLOYING) {
    await task.driver.network.validate(task);
    // A fast-tracked node keeps its running agent; one that may not be powered off is rebooted into the
    // agent by the deploy step instead.
    const fastTrack = await isFastTrack(task);
    if (!fastTrack && !node.disable_power_off) await task.powerAction(states.POWER_OFF);
    if (task.driver.storage.shouldWriteImage(task)) {
      const restore = fastTrack ? null : await powerOnNodeIfNeeded(task);
      await task.driver.network.unconfigureTenantNetworks(task);
      await task.driver.network.addProvisioningNetwork(task);
      await restorePowerStateIfNeeded(task, restore);
      // _update_instance_info: the running agent needs no boot files, only the image facts.
      if (fastTrack) await updateInstanceInfo(task);
    }
    await task.driver.storage.attachVolumes(task);
    if (!task.driver.storage.shouldWriteImage(task) || fastTrack) return;
  }
  if (node.provision_state === states.ACTIVE || node.provision_state === states.UNRESCUING) {
    await task.driver.boot.prepareInstance(task);
    return;
  }
  if (node.provision_state === states.ADOPTING) return;
  if (![states.RESCUING, states.RESCUEWAIT, states.RESCUE, states.RESCUEFAIL].includes(node.provision_state ?? '')) {
    await updateInstanceInfo(task);
  }
  if (manageBoot(task)) await task.driver.boot.prepareRamdisk(task, { 'ipa-api-url': ironicApiUrl(task) }, 'deploy');
}

/** The image facts in instance_info (build_instance_info_for_deploy), extra_data injected. */
async function updateInstanceInfo(task: DriverTask): Promise<void> {
  const inject = injectableExtraData(task.extraData);
  updateImageType(task);
  addAdminPassToConfigdrive(task, inject?.admin_pass);
  task.node.instance_info = await buildInstanceInfoForDeploy(task, inject);
  await task.saveNode();
}

/**
 * The `deploy` step: reboot into the agent, unless a previous step already did. On fast track the
 * running agent is used at once: its deploy steps are fetched now (no heartbeat brings them) and
 * the flow goes straight on.
 */
async function deployStep(task: DriverTask): Promise<string | null> {
  if (await isFastTrack(task)) {
    log.debug(`Performing a fast track deployment for ${task.node.uuid}.`);
    await refreshDeploySteps(task, clientFor(task));
    return null;
  }
  if (!task.driver.storage.shouldWriteImage(task)) return null;
  if (!(task.node.driver_internal_info ?? {}).deployment_reboot) await task.powerAction(states.REBOOT);
  // Read again: the power action rewrote driver_internal_info (the agent's token and URL are gone).
  const { deployment_reboot: _done, ...info } = task.node.driver_internal_info ?? {};
  task.node.driver_internal_info = info;
  await task.saveNode();
  return states.DEPLOYWAIT;
}

async function bootInstance(task: DriverTask): Promise<void> {
  try {
    // Never powered off after the deploy (tear_down_agent locked the agent down): reset it now.
    if (task.node.disable_power_off) {
      await task.powerAction(states.REBOOT);
    } else if ((await task.driver.power.getSupportedPowerStates(task)).includes(states.POWER_ON)) {
      await task.powerAction(states.POWER_ON);
    }
  } catch (err) {
    throw deploymentError(task, `Error booting node ${task.node.uuid} after deploy. ${(err as Error).name}: ${(err as Error).message}`);
  }
}

const clientFor = (task: DriverTask) => new AgentClient(task.ctx.conf);

const STEPS: readonly DeclaredStep[] = [
  coreDeployStep(deployStep),
  { step: 'write_image', kinds: ['deploy'], priority: 80, run: (task) => writeImage(task, clientFor(task)) },
  { step: 'prepare_instance_boot', kinds: ['deploy'], priority: 60, run: (task) => prepareInstanceBoot(task, clientFor(task)) },
  { step: 'tear_down_agent', kinds: ['deploy'], priority: 40, run: (task) => tearDownAgent(task, clientFor(task)) },
  { step: 'switch_to_tenant_network', kinds: ['deploy'], priority: 30, run: switchToTenantNetwork },
  { step: 'boot_instance', kinds: ['deploy'], priority: 20, run: bootInstance },
];

/**
 * AgentBaseMixin.execute_clean_step / execute_service_step: the agent's cached in-band steps run in the
 * ramdisk, its service steps while the node is serviced, its clean steps otherwise.
 */
const inbandStep: UndeclaredStep = (task, step) => {
  if (isAgentServiceStep(task, step)) return async () => executeInbandStep(task, clientFor(task), 'service');
  return isCachedCleanStep(task, 'deploy', step) ? async () => executeInbandStep(task, clientFor(task), 'clean') : null;
};

export function createDirectDeploy(): DeployInterface {
  return {
    kind: 'deploy', name: 'direct', className: 'AgentDeploy',
    properties: () => ({ ...PROPERTIES }),
    async validate(task) {
      if (manageBoot(task)) await task.driver.boot.validate(task);
      if (!task.driver.storage.shouldWriteImage(task)) return;
      validateImageInfo(task);
    },
    ...declareSteps('deploy', STEPS, inbandStep),
    async tearDown(task) {
      if (!task.node.disable_power_off) await task.powerAction(states.POWER_OFF);
      await task.driver.storage.detachVolumes(task);
      await tearDownStorageConfiguration(task);
      await withPowerForNetwork(task, async () => {
        await task.driver.network.unconfigureTenantNetworks(task);
        // A failed deployment may have left provisioning ports.
        await task.driver.network.removeProvisioningNetwork(task);
      });
      return states.DELETED;
    },
    prepare,
    async cleanUp(task) {
      if (manageBoot(task)) await task.driver.boot.cleanUpRamdisk(task, 'deploy');
      await task.driver.boot.cleanUpInstance(task);
      await destroyHttpInstanceImages(task.ctx.conf, task.node.uuid);
      // tearDown could not power it off: reboot so that the instance image no longer runs.
      if (task.node.disable_power_off) await task.powerAction(states.REBOOT);
    },
    async takeOver() {},
    runtimeSteps(task, kind) {
      if (kind === 'service') return agentServiceSteps(task);
      return kind === 'clean' ? agentDeployCleanSteps(task) : [];
    },
    prepareCleaning: (task) => prepareInbandCleaning(task, manageBoot(task)),
    tearDownCleaning: (task) => tearDownInbandCleaning(task, manageBoot(task)),
    prepareService: prepareInbandService,
    tearDownService: (task) => tearDownInbandService(task, clientFor(task)),
    async heartbeat(task) {
      return agentHeartbeat(task, clientFor(task));
    },
  };
}
