/**
 * The `external` storage interface (drivers/modules/storage/external.py ExternalStorage): volumes
 * are attached by someone else (the operator, or Nova); Ironic only boots from the boot volume,
 * which needs a boot interface that can iPXE.
 */
import { InvalidParameterValue } from '../../common/errors';
import { log } from '../../common/log';
import type { StorageInterface } from '../base';
import { writesImage } from './boot-volume';

export function createExternalStorage(): StorageInterface {
  return {
    kind: 'storage', name: 'external', className: 'ExternalStorage',
    properties: () => ({}),
    async validate(task) {
      if (writesImage(task) || (task.driver.boot.capabilities ?? []).includes('ipxe_boot')) return;
      const message = `Failed to validate external storage interface for node ${task.node.uuid}. To support network ` +
        'booting to an iSCSI volume, the boot interface must be set to ``ipxe``.';
      log.error(message);
      throw new InvalidParameterValue(message);
    },
    async attachVolumes() {},
    async detachVolumes() {},
    shouldWriteImage: writesImage,
  };
}
