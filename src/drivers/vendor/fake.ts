/** Fake vendor interface: the properties Ironic's FakeVendorB advertises, no passthru routes. */
import type { VendorInterface } from '../base';

export function createFakeVendor(): VendorInterface {
  return {
    kind: 'vendor', name: 'fake', className: 'FakeVendorB',
    properties: () => ({ B1: 'B1 description. Required.', B2: 'B2 description. Required.' }),
    async validate() {},
    routes: {},
  };
}
