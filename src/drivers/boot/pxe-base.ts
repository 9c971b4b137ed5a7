/**
 * PXEBaseMixin (drivers/modules/pxe_base.py) for the network boot interfaces: pxe, ipxe, http and
 * http-ipxe differ only in their BootFlavor. prepareRamdisk writes the node's config with the
 * `deploy` (or rescue) entry as default, links it under each PXE MAC, caches the kernel/ramdisk,
 * sets DHCP options and boots the node from the network; prepareInstance switches the config to
 * the instance (partition images, ramdisks) or removes it for local boot.
 */
import { promises as fsp } from 'node:fs';
import { configFilePath } from '../../boot/paths';
import {
  buildVolumePxeOptions, cleanUpPxeConfig, createIpxeBootScript, createPxeConfig, placeCommonConfig, switchPxeConfig, type BootTarget,
} from '../../boot/pxe-config';
import { iscsiBootOptions } from '../../boot/volume-options';
import { InvalidParameterValue, MissingParameterValue, UnsupportedDriverExtension } from '../../common/errors';
import { log } from '../../common/log';
import * as states from '../../common/states';
import type { BootInterface, DriverTask, JsonObject } from '../base';
import { bootNodeFor, cacheImages, cleanDhcp, dhcpIpAddresses, kernelCommandLine, updateDhcp } from './pxe-files';
import {
  bootOptionOf, instanceImageInfo, parseDriverInfo, pxeMacs, rescueOrDeployMode, validateCapabilities, type RamdiskMode,
} from './pxe-node';
import { ironicApiUrl, pxeConfFor, usesHttpFolder, type BootFlavor } from './pxe-settings';
import { lookupTable } from '../../common/own-keys';
import { bootVolumeTarget } from '../storage/boot-volume';
import type { VolumeTargetRecord } from '../../db/models';

const KERNEL_APPEND_DESCRIPTION = 'Additional kernel parameters to pass down to instance kernel. These parameters can be ' +
  'consumed by the kernel or by the applications by reading /proc/cmdline. Mind severe cmdline size limit. Overrides ' +
  '[pxe]/kernel_append_params configuration option, use %default% to insert the default value.';

/** pxe_base.COMMON_PROPERTIES */
const PROPERTIES: Readonly<Record<string, string>> = lookupTable({
  deploy_kernel: 'UUID (from Glance) of the deployment kernel. Required.',
  deploy_ramdisk: 'UUID (from Glance) of the ramdisk that is mounted at boot time. Required.',
  force_persistent_boot_device: "Controls the persistency of boot order changes. 'Always' will make all changes " +
    "persistent, 'Default' will make all but the final one upon instance deployment non-persistent, and 'Never' will " +
    "make no persistent changes at all. The old values 'True' and 'False' are still supported but deprecated in favor of the new ones.",
  rescue_kernel: 'UUID (from Glance) of the rescue kernel. This value is required for rescue mode.',
  rescue_ramdisk: 'UUID (from Glance) of the rescue ramdisk with agent that is used at node rescue time. This value is required for rescue mode.',
  kernel_append_params: KERNEL_APPEND_DESCRIPTION,
});

/** manager_utils.node_set_boot_device (nothing is changed while adopting). */
async function setBootDevice(task: DriverTask, device: string, persistent: boolean): Promise<void> {
  if (task.node.provision_state === states.ADOPTING) return;
  await task.driver.management.validate(task);
  await task.driver.management.setBootDevice(task, device, persistent);
}

/** HTTP boot asks for uefihttp and falls back to pxe where the BMC has no such device. */
async function setNetworkBootDevice(task: DriverTask, flavor: BootFlavor, persistent: boolean): Promise<void> {
  if (flavor.http) {
    try {
      return await setBootDevice(task, 'uefihttp', persistent);
    } catch (err) {
      if (!(err instanceof InvalidParameterValue)) throw err;
      log.warning(`Attempted to set HTTPBOOT for node ${task.node.uuid}, but it is not supported by the driver. ` +
        'Falling back to PXE to trigger network boot.');
    }
  }
  await setBootDevice(task, 'pxe', persistent);
}

function validateCommon(task: DriverTask, flavor: BootFlavor): void {
  if (pxeMacs(task).length === 0) throw new MissingParameterValue(`Node ${task.node.uuid} does not have any port associated with it`);
  const conf = task.ctx.conf;
  if (usesHttpFolder(flavor) && (!conf.optStr('deploy', 'http_url') || !conf.optStr('deploy', 'http_root'))) {
    throw new MissingParameterValue(`${flavor.ipxe ? 'iPXE' : 'HTTP'} boot is enabled but no HTTP URL or HTTP root was specified`);
  }
  validateCapabilities(task);
  const ii = (task.node.instance_info ?? {}) as Record<string, unknown>;
  if (ii.image_source && ii.boot_iso) {
    throw new InvalidParameterValue("An 'image_source' and 'boot_iso' parameter may not be specified at the same time");
  }
  parseDriverInfo(task, 'deploy');
}

function ramdiskMode(task: DriverTask, mode: string): RamdiskMode {
  return mode === 'rescue' ? 'rescue' : rescueOrDeployMode(task);
}

/** Instance kernel/ramdisk pair for network-booted instances; none for local boot. */
function instanceImages(task: DriverTask): Array<[string, string]> {
  if (bootOptionOf(task) === 'local') return [];
  const info = instanceImageInfo(task);
  return [['kernel', info.kernel!], ['ramdisk', info.ramdisk!]];
}

async function prepareRamdisk(task: DriverTask, flavor: BootFlavor, ramdiskParams: JsonObject, modeArg: string): Promise<void> {
  const mode = ramdiskMode(task, modeArg);
  const conf = pxeConfFor(task.ctx.conf, flavor);
  if (flavor.ipxe) await createIpxeBootScript(conf);
  await updateDhcp(task, flavor);
  const agent = parseDriverInfo(task, mode);
  const images: Array<[string, string]> = [[`${mode}_kernel`, agent.kernel], [`${mode}_ramdisk`, agent.ramdisk]];
  if (task.node.provision_state === states.DEPLOYING) images.push(...instanceImages(task));
  // The agent needs to know where to call back; deploy interfaces normally pass it.
  const params: JsonObject = { 'ipa-api-url': ironicApiUrl(task.ctx.conf), ...ramdiskParams };
  const node = bootNodeFor(task, flavor, conf, { mode, instance: images.length > 2, appendParams: kernelCommandLine(task, conf, params) });
  if (node.boot_mode === 'uefi' && !flavor.ipxe) {
    await placeCommonConfig(conf);
    node.ip_addresses = await dhcpIpAddresses(task);
  }
  await createPxeConfig(node, conf);
  await setNetworkBootDevice(task, flavor, false);
  await cacheImages(task, conf, node, images);
  log.debug(`Ramdisk (i)PXE boot for node ${task.node.uuid} has been prepared with kernel params ${node.kernel_append_params}`);
}

async function exists(file: string): Promise<boolean> {
  return fsp.stat(file).then(() => true, () => false);
}

/** pxe_utils.build_service_pxe_config / prepare_instance_pxe_config for netboot and ramdisk instances. */
async function prepareNetbootInstance(task: DriverTask, flavor: BootFlavor, target: BootTarget): Promise<boolean> {
  const conf = pxeConfFor(task.ctx.conf, flavor);
  const rootUuid = (task.node.driver_internal_info ?? {}).root_uuid_or_disk_id;
  const needsRoot = target === 'boot_partition' || target === 'boot';
  if (needsRoot && typeof rootUuid !== 'string') {
    log.warning(`The UUID for the root partition can't be found, unable to switch the pxe config from deployment mode ` +
      `to service (boot) mode for node ${task.node.uuid}`);
    return false;
  }
  const node = bootNodeFor(task, flavor, conf, { mode: 'deploy', instance: true, appendParams: kernelCommandLine(task, conf, {}) });
  await cacheImages(task, conf, node, instanceImages(task));
  if (flavor.ipxe) await createIpxeBootScript(conf);
  await updateDhcp(task, flavor);
  if (!(await exists(configFilePath(conf, node)))) await createPxeConfig(node, conf);
  await switchPxeConfig(node, conf, needsRoot ? { target, rootUuid: rootUuid as string } : { target });
  return true;
}

/**
 * prepare_instance_pxe_config for a node booting from an iSCSI volume: a config whose boot_iscsi entry
 * hooks the volume (iPXE; the deploy entry stays empty), switched to that entry.
 */
async function prepareIscsiInstance(task: DriverTask, flavor: BootFlavor, boot: VolumeTargetRecord): Promise<void> {
  const conf = pxeConfFor(task.ctx.conf, flavor);
  const node = bootNodeFor(task, flavor, conf, { mode: 'deploy', appendParams: kernelCommandLine(task, conf, {}) });
  if (flavor.ipxe) await createIpxeBootScript(conf);
  await updateDhcp(task, flavor);
  if (!(await exists(configFilePath(conf, node)))) {
    const iqns = task.volumeConnectors.filter((c) => c.type === 'iqn').map((c) => String(c.connector_id));
    const iscsi = flavor.ipxe ? iscsiBootOptions(boot, task.volumeTargets, iqns) : null;
    await createPxeConfig(node, conf, iscsi ? buildVolumePxeOptions(node, conf, iscsi) : undefined);
  }
  await switchPxeConfig(node, conf, { target: 'boot_iscsi' });
}

/** The entry a network-booted instance starts from: the iscsi deploy's config names it `boot`. */
function netbootTarget(task: DriverTask, option: string): BootTarget {
  if (option === 'ramdisk') return 'boot_ramdisk';
  return task.node.deploy_interface === 'iscsi' ? 'boot' : 'boot_partition';
}

async function prepareInstance(task: DriverTask, flavor: BootFlavor): Promise<void> {
  const option = bootOptionOf(task);
  const bootVolume = await bootVolumeTarget(task);
  let device: string | null;
  if (bootVolume?.volume_type === 'iscsi') {
    await prepareIscsiInstance(task, flavor, bootVolume);
    device = 'pxe';
  } else if (option === 'local') {
    await cleanUpPxeConfig(bootNodeFor(task, flavor, pxeConfFor(task.ctx.conf, flavor), { mode: 'deploy' }), pxeConfFor(task.ctx.conf, flavor));
    device = 'disk';
  } else {
    const switched = await prepareNetbootInstance(task, flavor, netbootTarget(task, option));
    device = switched ? 'pxe' : null;
  }
  // Takeover of an active node must not touch its boot device.
  if (!device || task.node.provision_state === states.ACTIVE || task.node.provision_state === states.ADOPTING) return;
  if (device === 'pxe') await setNetworkBootDevice(task, flavor, true);
  else await setBootDevice(task, device, true);
}

/** clean_up_pxe_env + clean_up_pxe_config: the node directory and every link to its config go. */
async function removeNodeFiles(task: DriverTask, flavor: BootFlavor, mode: RamdiskMode): Promise<void> {
  const conf = pxeConfFor(task.ctx.conf, flavor);
  const node = bootNodeFor(task, flavor, conf, { mode });
  if (node.boot_mode === 'uefi' && !flavor.ipxe) node.ip_addresses = await dhcpIpAddresses(task);
  await cleanUpPxeConfig(node, conf);
}

export function createNetworkBoot(flavor: BootFlavor): BootInterface {
  return {
    kind: 'boot', name: flavor.name, className: flavor.className,
    capabilities: flavor.ipxe ? ['iscsi_volume_boot', 'ramdisk_boot', 'ipxe_boot'] : ['ramdisk_boot', 'pxe_boot'],
    properties: () => ({ ...PROPERTIES }),
    async validate(task) {
      validateCommon(task, flavor);
      // Nothing more to check when no image is written or the instance boots from its disk.
      if (!task.driver.storage.shouldWriteImage(task) || bootOptionOf(task) === 'local') return;
      instanceImageInfo(task);
    },
    async validateInspection(task) {
      try {
        validateCommon(task, flavor);
      } catch (err) {
        // Falls back to unmanaged in-band inspection (pxe_base validate_inspection).
        if (err instanceof MissingParameterValue) {
          throw new UnsupportedDriverExtension(`Insufficient information provided for managed inspection: ${err.message}`);
        }
        throw err;
      }
    },
    prepareRamdisk: (task, ramdiskParams, mode) => prepareRamdisk(task, flavor, ramdiskParams, mode),
    cleanUpRamdisk: (task, mode) => removeNodeFiles(task, flavor, ramdiskMode(task, mode)),
    prepareInstance: (task) => prepareInstance(task, flavor),
    async cleanUpInstance(task) {
      await removeNodeFiles(task, flavor, 'deploy');
      // Undeploy: the node's MACs stop getting boot options (ignored hosts).
      await cleanDhcp(task);
    },
  };
}
