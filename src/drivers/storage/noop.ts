/** No volume storage: local disk only (drivers/modules/storage/noop.py). */
import type { StorageInterface } from '../base';

export function createNoopStorage(): StorageInterface {
  return {
    kind: 'storage', name: 'noop', className: 'NoopStorage',
    properties: () => ({}),
    async validate() {},
    async attachVolumes() {},
    async detachVolumes() {},
    shouldWriteImage: () => true,
  };
}
