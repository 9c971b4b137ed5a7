/** Rescue disabled for this node. */
import type { RescueInterface } from '../base';
import { unsupported } from '../unsupported';

export function createNoRescue(): RescueInterface {
  return {
    kind: 'rescue', name: 'no-rescue', className: 'NoRescue',
    properties: () => ({}),
    async validate(task) {
      unsupported(task, 'rescue');
    },
    async rescue(task) {
      return unsupported(task, 'rescue');
    },
    async unrescue(task) {
      return unsupported(task, 'rescue');
    },
    async cleanUp() {},
  };
}
