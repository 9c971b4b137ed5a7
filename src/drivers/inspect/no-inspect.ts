/** Inspection disabled for this node. */
import type { InspectInterface } from '../base';
import { unsupported } from '../unsupported';

export function createNoInspect(): InspectInterface {
  return {
    kind: 'inspect', name: 'no-inspect', className: 'NoInspect',
    properties: () => ({}),
    async validate(task) {
      unsupported(task, 'inspect');
    },
    async inspectHardware(task) {
      return unsupported(task, 'inspect');
    },
    async abort(task) {
      unsupported(task, 'inspect');
    },
  };
}
