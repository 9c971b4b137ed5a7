/** Fake BIOS: its clean steps (priority 0, manual only) succeed without hardware. */
import type { BiosInterface, JsonObject, StepDecl } from '../base';

const STEPS: readonly StepDecl[] = [
  {
    step: 'apply_configuration', kinds: ['clean'], priority: 0,
    argsinfo: {
      settings: {
        description: 'List of BIOS settings, each item needs to contain a dictionary with name/value pairs',
        required: true,
      },
    },
  },
  { step: 'factory_reset', kinds: ['clean'], priority: 0 },
  { step: 'cache_bios_settings', kinds: ['clean'], priority: 0 },
];

export function createFakeBios(): BiosInterface {
  return {
    kind: 'bios', name: 'fake', className: 'FakeBIOS',
    properties: () => ({}),
    async validate() {},
    steps: STEPS,
    async executeStep(_task, _step, _args: JsonObject) {
      return null;
    },
    async applyConfiguration() {
      return null;
    },
    async factoryReset() {
      return null;
    },
    async cacheBiosSettings() {},
  };
}
