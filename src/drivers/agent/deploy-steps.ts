/**
 * The agent deploy steps that talk to the ramdisk (agent.py AgentDeploy.write_image and
 * prepare_instance_boot, agent_base.py tear_down_agent), plus the node facts they read.
 */
import { InstanceDeployFailure } from '../../common/errors';
import { log } from '../../common/log';
import * as states from '../../common/states';
import { getConfigDriveImage, type ConfigDriveInput } from '../../images/configdrive';
import { isGlanceImage } from '../../images/glance/image-ref';
import type { DriverTask, JsonObject } from '../base';
import { deploymentError } from '../deploy/deployment-error';
import { AgentClient, commandErrorText } from './client';
import { executeInbandDeployStep } from './heartbeat';
import { removeHttpInstanceImage } from './instance-image';
import { collectRamdiskLogs, deployLogsCollect } from './ramdisk-logs';
import { bootMode, bootOption, isWholeDiskImage } from './boot-facts';
import { setTimeout as sleep } from 'node:timers/promises';

const PARTITION_IMAGE_LABELS = ['kernel', 'ramdisk', 'root_gb', 'root_mb', 'swap_mb', 'ephemeral_mb', 'ephemeral_format',
  'configdrive', 'preserve_ephemeral', 'image_type', 'deploy_boot_mode'];



/** update_image_type: partition images come with a kernel and ramdisk, unless image_type says otherwise. */
export function updateImageType(task: DriverTask): void {
  const info = task.node.instance_info ?? {};
  if (!info.image_source) return;
  // A Glance image's record decides, once it is read (glance-image.ts).
  if (typeof info.image_type !== 'string' && isGlanceImage(info.image_source)) return;
  const iwdi = typeof info.image_type === 'string' ? info.image_type !== 'partition' : !info.kernel && !info.ramdisk;
  task.node.driver_internal_info = { ...(task.node.driver_internal_info ?? {}), is_whole_disk_image: iwdi };
  task.node.instance_info = { ...info, image_type: iwdi ? 'whole-disk' : 'partition' };
}

/** The image_info of write_image, as IPA's standby extension expects it. */
function imageInfo(task: DriverTask, configdrive: string | null): JsonObject {
  const node = task.node;
  const ii = node.instance_info ?? {};
  const info: JsonObject = {
    id: String(ii.image_source).split('/').pop(),
    urls: [ii.image_url],
    disk_format: ii.image_disk_format ?? null,
    container_format: ii.image_container_format ?? null,
    stream_raw_images: task.ctx.conf.bool('agent', 'stream_raw_images'),
  };
  if (ii.image_checksum) info.checksum = ii.image_checksum;
  if (ii.image_os_hash_algo && ii.image_os_hash_value) {
    info.os_hash_algo = ii.image_os_hash_algo;
    info.os_hash_value = ii.image_os_hash_value;
  }
  const proxies: JsonObject = {};
  for (const scheme of ['http', 'https']) {
    const proxy = (node.driver_info ?? {})[`image_${scheme}_proxy`];
    if (proxy) proxies[scheme] = proxy;
  }
  if (Object.keys(proxies).length) {
    info.proxies = proxies;
    const noProxy = (node.driver_info ?? {}).image_no_proxy;
    if (noProxy !== undefined && noProxy !== null) info.no_proxy = noProxy;
  }
  info.node_uuid = node.uuid;
  if (!isWholeDiskImage(task)) {
    for (const label of PARTITION_IMAGE_LABELS) info[label] = ii[label] ?? null;
    info.deploy_boot_mode = bootMode(task);
    info.boot_option = bootOption(task);
  }
  if (configdrive) info.configdrive = configdrive;
  return info;
}

/** write_image (priority 80): the agent downloads and writes the image in its own write_image step. */
export async function writeImage(task: DriverTask, client: AgentClient): Promise<string | null> {
  if (!task.driver.storage.shouldWriteImage(task)) return null;
  const node = task.node;
  log.debug(`Continuing deploy for node ${node.uuid} with image ${String((node.instance_info ?? {}).image_source)}`);
  const source = (node.instance_info ?? {}).configdrive as ConfigDriveInput | undefined | null;
  const configdrive = source === undefined || source === null ? null : await getConfigDriveImage(source, node);
  const info = imageInfo(task, configdrive);
  return executeInbandDeployStep(task, client, {
    interface: 'deploy', step: 'write_image', args: { image_info: info, configdrive },
  });
}

/** configure_local_boot: bootloader for partition (or UEFI whole disk) images, then boot from disk. */
async function configureLocalBoot(task: DriverTask, client: AgentClient, rootUuid: string | null, efiUuid: string | null,
  prepUuid: string | null): Promise<void> {
  const node = task.node;
  const mode = bootMode(task);
  const iwdi = isWholeDiskImage(task);
  if ((rootUuid && !iwdi) || (iwdi && mode === 'uefi')) {
    const result = await client.command(node, 'image.install_bootloader', {
      root_uuid: rootUuid, efi_system_part_uuid: efiUuid, prep_boot_part_uuid: prepUuid, target_boot_mode: mode,
    }, { poll: true });
    if (result.command_status === 'FAILED') {
      throw new InstanceDeployFailure(`Failed to install a bootloader when deploying node ${node.uuid}: ${commandErrorText(result)}`);
    }
  }
  const persistent = (node.driver_info ?? {}).force_persistent_boot_device !== 'Never';
  try {
    await task.driver.management.setBootDevice(task, 'disk', persistent);
  } catch (err) {
    throw new InstanceDeployFailure(`Failed to change the boot device to disk when deploying node ${node.uuid}: ${(err as Error).message}`);
  }
  log.info(`Local boot successfully configured for node ${node.uuid}`);
}

/** prepare_instance_boot (priority 60): record the root partition, install the bootloader, prepare the boot. */
export async function prepareInstanceBoot(task: DriverTask, client: AgentClient): Promise<void> {
  if (!task.driver.storage.shouldWriteImage(task)) {
    await task.driver.boot.prepareInstance(task);
    return;
  }
  const node = task.node;
  const uuids = ((await client.getPartitionUuids(node)).command_result ?? {}) as Record<string, string | undefined>;
  const rootUuid = uuids['root uuid'] ?? null;
  if (rootUuid) {
    node.driver_internal_info = { ...(node.driver_internal_info ?? {}), root_uuid_or_disk_id: rootUuid };
    await task.saveNode();
  } else if (!isWholeDiskImage(task)) {
    log.error(`No root UUID returned from the ramdisk for node ${node.uuid}, the deploy will likely fail.`);
  }
  const efiUuid = !isWholeDiskImage(task) && bootMode(task) === 'uefi' ? uuids['efi system partition uuid'] ?? null : null;
  const arch = (node.properties ?? {}).cpu_arch;
  const prepUuid = typeof arch === 'string' && arch.startsWith('ppc64') ? uuids['PReP Boot partition uuid'] ?? null : null;
  log.info(`Image successfully written to node ${node.uuid}`);
  if (task.ctx.conf.bool('agent', 'manage_agent_boot')) {
    if (bootOption(task) !== 'netboot') await configureLocalBoot(task, client, rootUuid, efiUuid, prepUuid);
    try {
      await task.driver.boot.prepareInstance(task);
    } catch (err) {
      log.error(`Preparing instance for booting failed for instance ${node.instance_uuid}. ${(err as Error).message}`);
      throw new InstanceDeployFailure('Failed to prepare instance for booting');
    }
  } else {
    await task.driver.management.setBootDevice(task, 'disk', true);
  }
  await removeHttpInstanceImage(task.ctx.conf, node.uuid);
}

async function canPowerOn(task: DriverTask): Promise<boolean> {
  return (await task.driver.power.getSupportedPowerStates(task)).includes(states.POWER_ON);
}

/** Polls the power state until off, [agent]post_deploy_get_power_state_retries times. */
async function waitUntilPoweredOff(task: DriverTask): Promise<boolean> {
  const attempts = task.ctx.conf.int('agent', 'post_deploy_get_power_state_retries') + 1;
  const interval = task.ctx.conf.int('agent', 'post_deploy_get_power_state_retry_interval') * 1000;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const state = await task.driver.power.getPowerState(task).catch(() => null);
    if (state === states.POWER_OFF) return true;
    if (attempt < attempts) await sleep(interval);
  }
  return false;
}

/** tear_down_agent (priority 40): soft power off through the agent, hard power off as the fallback. */
export async function tearDownAgent(task: DriverTask, client: AgentClient): Promise<void> {
  const node = task.node;
  const oob = ['1', 'true', 'yes', 'on'].includes(String((node.driver_info ?? {}).deploy_forces_oob_reboot ?? false).toLowerCase());
  if (deployLogsCollect(task.ctx.conf) === 'always') await collectRamdiskLogs(task, client);
  try {
    if (node.disable_power_off) {
      log.info(`Node ${node.uuid} does not support power off, locking down the agent`);
      await client.lockdown(node);
    } else if (!(await canPowerOn(task))) {
      await client.sync(node);
      await task.powerAction(states.REBOOT);
    } else if (!oob) {
      try {
        await client.powerOff(node);
      } catch (err) {
        log.warning(`Failed to soft power off node ${node.uuid}. ${(err as Error).name}: ${(err as Error).message}`);
      }
      if (!(await waitUntilPoweredOff(task))) {
        log.warning(`Failed to soft power off node ${node.uuid}. Forcing hard power off and proceeding.`);
        await task.powerAction(states.POWER_OFF);
      }
    } else {
      const result = await client.sync(node).catch((err: Error) => ({ faultstring: err.message }));
      const fault = (result as { faultstring?: string }).faultstring;
      if (fault) log.warning(`Failed to flush the file system prior to hard rebooting the node ${node.uuid}: ${fault}`);
      await task.powerAction(states.POWER_OFF);
    }
  } catch (err) {
    // set_failed_state(collect_logs=True): the logs of the failure, where they are collected on failure.
    if (deployLogsCollect(task.ctx.conf) !== 'never') await collectRamdiskLogs(task, client);
    throw deploymentError(task, `Error rebooting node ${node.uuid} after deploy. ${(err as Error).name}: ${(err as Error).message}`);
  }
}
