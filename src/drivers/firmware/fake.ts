/** Fake firmware: updates succeed instantly. */
import type { FirmwareInterface, StepDecl } from '../base';

const STEPS: readonly StepDecl[] = [
  {
    step: 'update', kinds: ['clean', 'service'], priority: 0,
    argsinfo: { settings: { description: 'A list of dicts with firmware components to be updated', required: true } },
  },
];

export function createFakeFirmware(): FirmwareInterface {
  return {
    kind: 'firmware', name: 'fake', className: 'FakeFirmware',
    properties: () => ({}),
    async validate() {},
    steps: STEPS,
    async executeStep() {
      return null;
    },
    async update() {
      return null;
    },
    async cacheFirmwareComponents() {},
  };
}
