/** BIOS settings management disabled for this node. */
import type { BiosInterface } from '../base';
import { unsupported } from '../unsupported';

export function createNoBios(): BiosInterface {
  return {
    kind: 'bios', name: 'no-bios', className: 'NoBIOS',
    properties: () => ({}),
    async validate(task) {
      unsupported(task, 'bios');
    },
    async applyConfiguration(task) {
      return unsupported(task, 'bios');
    },
    async factoryReset(task) {
      return unsupported(task, 'bios');
    },
    // Caching is best effort on every conductor pass, so "no-bios" simply has nothing to cache.
    async cacheBiosSettings() {},
  };
}
