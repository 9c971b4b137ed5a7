/** Fake storage: volumes attach and detach instantly; the image is always written. */
import type { StorageInterface } from '../base';

export function createFakeStorage(): StorageInterface {
  return {
    kind: 'storage', name: 'fake', className: 'FakeStorage',
    properties: () => ({}),
    async validate() {},
    async attachVolumes() {},
    async detachVolumes() {},
    shouldWriteImage: () => true,
  };
}
