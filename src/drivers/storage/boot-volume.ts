/**
 * Boot from volume, as the deploy and boot interfaces see it (deploy_utils): the boot volume is
 * the target with boot_index 0; no image is written when the instance has no image_source and
 * boots from one; populate/tear_down_storage_configuration record and forget the boot volume
 * in driver_internal_info (boot_from_volume), and undeploy deletes the node's targets.
 */
import { StorageError } from '../../common/errors';
import { log } from '../../common/log';
import { NotFoundError } from '../../db/errors';
import type { VolumeTargetRecord } from '../../db/models';
import * as targetsRepo from '../../db/repositories/volume-targets';
import type { DriverTask } from '../base';
import { parseCapabilities } from '../boot/pxe-node';

/** get_remote_boot_volume */
function remoteBootVolume(task: DriverTask): VolumeTargetRecord | undefined {
  return task.volumeTargets.find((t) => t.boot_index === 0);
}

/** should_write_image of the cinder and external storage interfaces. */
export function writesImage(task: DriverTask): boolean {
  if (Object.hasOwn(task.node.instance_info ?? {}, 'image_source')) return true;
  return remoteBootVolume(task) === undefined;
}

const hasCapability = (capabilities: readonly string[] | undefined, name: string) => (capabilities ?? []).includes(name);

/** populate_storage_driver_internal_info: which volume the node boots (and is deployed) from. */
export async function populateStorageDriverInternalInfo(task: DriverTask): Promise<void> {
  const node = task.node;
  const bootVolume = remoteBootVolume(task);
  if (!bootVolume) return;
  const volumeType = String(bootVolume.volume_type).toLowerCase();
  const caps = parseCapabilities((node.properties ?? {}).capabilities);
  if (volumeType === 'iscsi' && !Object.hasOwn(caps, 'iscsi_boot')) {
    throw new StorageError(`Node ${node.uuid} has an iSCSI boot volume defined and no iSCSI boot support available.`);
  }
  if (volumeType === 'fibre_channel' && !Object.hasOwn(caps, 'fibre_channel_boot')) {
    throw new StorageError(`Node ${node.uuid} has a Fibre Channel boot volume defined and no Fibre Channel boot support available.`);
  }
  const info = { ...(node.driver_internal_info ?? {}) };
  if (hasCapability(task.driver.boot.capabilities, `${volumeType}_volume_boot`)) info.boot_from_volume = bootVolume.uuid;
  if (hasCapability(task.driver.deploy.capabilities, `${volumeType}_volume_deploy`) && task.driver.storage.shouldWriteImage(task)) {
    info.boot_from_volume_deploy = bootVolume.uuid;
  }
  node.driver_internal_info = info;
  await task.saveNode();
}

/** tear_down_storage_configuration: the targets go, and with them the boot volume's record. */
export async function tearDownStorageConfiguration(task: DriverTask): Promise<void> {
  for (const target of task.volumeTargets) {
    await targetsRepo.destroy(task.ctx.db, target.id);
    log.info(`Successfully deleted volume target ${target.uuid}. The node associated with the target was ${task.node.uuid}.`);
  }
  task.volumeTargets.length = 0;
  const { boot_from_volume: _boot, boot_from_volume_deploy: _deploy, ...info } = task.node.driver_internal_info ?? {};
  task.node.driver_internal_info = info;
  await task.saveNode();
}

/** The boot volume's target as stored now, when the node boots from one (is_iscsi_boot reads its volume_type). */
export async function bootVolumeTarget(task: DriverTask): Promise<VolumeTargetRecord | null> {
  const uuid = (task.node.driver_internal_info ?? {}).boot_from_volume;
  if (typeof uuid !== 'string' || !uuid) return null;
  return targetsRepo.get(task.ctx.db, uuid).catch((err: unknown) => {
    if (err instanceof NotFoundError) return null;
    throw err;
  });
}

