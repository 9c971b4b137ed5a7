/** Fake firmware (drivers/modules/fake.py FakeFirmware): a manual clean step `update` that succeeds at once. */
import type { FirmwareInterface } from '../base';
import { declareSteps, type DeclaredStep } from '../declared-steps';

const update = async () => null;

const STEPS: readonly DeclaredStep[] = [
  {
    // 29.0.5's fake offers it for cleaning only (no deploy or service step).
    step: 'update', kinds: ['clean'], priority: 0,
    argsinfo: {
      settings: {
        description: 'List of Firmware components, each item needs to contain a dictionary with name/value pairs',
        required: true,
      },
    },
    run: update,
  },
];

export function createFakeFirmware(): FirmwareInterface {
  return {
    kind: 'firmware', name: 'fake', className: 'FakeFirmware',
    properties: () => ({}),
    async validate() {},
    ...declareSteps('firmware', STEPS),
    update,
    async cacheFirmwareComponents() {},
  };
}
