/** Serial console disabled for this node. */
import type { ConsoleInterface } from '../base';
import { unsupported } from '../unsupported';

export function createNoConsole(): ConsoleInterface {
  return {
    kind: 'console', name: 'no-console', className: 'NoConsole',
    properties: () => ({}),
    async validate(task) {
      unsupported(task, 'console');
    },
    async startConsole(task) {
      unsupported(task, 'console');
    },
    async stopConsole(task) {
      unsupported(task, 'console');
    },
    async getConsole(task) {
      return unsupported(task, 'console');
    },
  };
}
