/** Vendor passthru disabled for this node. */
import type { VendorInterface } from '../base';
import { unsupported } from '../unsupported';

export function createNoVendor(): VendorInterface {
  return {
    kind: 'vendor', name: 'no-vendor', className: 'NoVendor',
    properties: () => ({}),
    async validate(task) {
      unsupported(task, 'vendor');
    },
    routes: {},
  };
}
