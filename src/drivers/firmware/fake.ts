/** Fake firmware: updates succeed instantly. */
import type { FirmwareInterface } from '../base';
import { declareSteps, type DeclaredStep } from '../declared-steps';

const update = async () => null;

const STEPS: readonly DeclaredStep[] = [
  {
    step: 'update', kinds: ['clean', 'service'], priority: 0,
    argsinfo: { settings: { description: 'A list of dicts with firmware components to be updated', required: true } },
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
