/** Fake console: starts and stops instantly and has nothing to connect to. */
import type { ConsoleInterface } from '../base';

export function createFakeConsole(): ConsoleInterface {
  return {
    kind: 'console', name: 'fake', className: 'FakeConsole',
    properties: () => ({}),
    async validate() {},
    async startConsole() {},
    async stopConsole() {},
    async getConsole() {
      return {};
    },
  };
}
