/**
 * Fake BIOS: its clean steps (priority 0, manual only) succeed without hardware, keeping the node's
 * bios_settings as FakeBIOS does: apply_configuration makes them exactly the given settings,
 * factory_reset removes them all.
 */
import { pyStr } from '../../common/python/str';
import * as biosSettings from '../../db/repositories/bios';
import type { BiosInterface, DriverTask, JsonObject, StepDecl } from '../base';

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

/** The BIOSSetting objects' values are strings: other JSON values are stored as Python's str() spells them. */
async function applySettings(task: DriverTask, settings: unknown): Promise<void> {
  const wanted = new Map<string, string | null>();
  for (const s of (Array.isArray(settings) ? settings : []) as JsonObject[]) {
    wanted.set(String(s.name), s.value === null || s.value === undefined ? null : pyStr(s.value));
  }
  await biosSettings.replaceAll(task.ctx.db, task.node.id, wanted, '1.1');
}

export function createFakeBios(): BiosInterface {
  return {
    kind: 'bios', name: 'fake', className: 'FakeBIOS',
    properties: () => ({}),
    async validate() {},
    steps: STEPS,
    async executeStep(task, step, args: JsonObject) {
      if (step === 'apply_configuration') await applySettings(task, args.settings);
      if (step === 'factory_reset') await biosSettings.replaceAll(task.ctx.db, task.node.id, new Map());
      return null;
    },
    async applyConfiguration(task, settings) {
      await applySettings(task, settings);
      return null;
    },
    async factoryReset(task) {
      await biosSettings.replaceAll(task.ctx.db, task.node.id, new Map());
      return null;
    },
    async cacheBiosSettings() {},
  };
}
