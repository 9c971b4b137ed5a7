/** Fake boot: every preparation succeeds without touching anything. */
import type { BootInterface } from '../base';

export function createFakeBoot(): BootInterface {
  return {
    kind: 'boot', name: 'fake', className: 'FakeBoot',
    capabilities: ['ipxe_boot', 'pxe_boot'],
    properties: () => ({}),
    async validate() {},
    async prepareRamdisk() {},
    async cleanUpRamdisk() {},
    async prepareInstance() {},
    async cleanUpInstance() {},
  };
}
