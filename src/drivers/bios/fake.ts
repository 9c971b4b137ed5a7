/**
 * Fake BIOS: its clean steps (priority 0, manual only) succeed without hardware, keeping the node's
 * bios_settings as FakeBIOS does: apply_configuration makes them exactly the given settings,
 * factory_reset removes them all.
 */
import { pyStr } from '../../common/python/str';
import * as biosSettings from '../../db/repositories/bios';
import type { BiosInterface, DriverTask, JsonObject } from '../base';
import { declareSteps, type DeclaredStep } from '../declared-steps';

/** The BIOSSetting objects' values are strings: other JSON values are stored as Python's str() spells them. */
async function applySettings(task: DriverTask, settings: unknown): Promise<null> {
  const wanted = new Map<string, string | null>();
  for (const s of (Array.isArray(settings) ? settings : []) as JsonObject[]) {
    wanted.set(String(s.name), s.value === null || s.value === undefined ? null : pyStr(s.value));
  }
  await biosSettings.replaceAll(task.ctx.db, task.node.id, wanted, '1.1');
  return null;
}

async function factoryReset(task: DriverTask): Promise<null> {
  await biosSettings.replaceAll(task.ctx.db, task.node.id, new Map());
  return null;
}

const STEPS: readonly DeclaredStep[] = [
  {
    step: 'apply_configuration', kinds: ['clean'], priority: 0,
    argsinfo: {
      settings: {
        description: 'List of BIOS settings, each item needs to contain a dictionary with name/value pairs',
        required: true,
      },
    },
    run: (task, args) => applySettings(task, args.settings),
  },
  { step: 'factory_reset', kinds: ['clean'], priority: 0, run: factoryReset },
  // FakeBIOS.cache_bios_settings does nothing.
  { step: 'cache_bios_settings', kinds: ['clean'], priority: 0, run: async () => null },
];

export function createFakeBios(): BiosInterface {
  return {
    kind: 'bios', name: 'fake', className: 'FakeBIOS',
    properties: () => ({}),
    async validate() {},
    ...declareSteps('bios', STEPS),
    applyConfiguration: applySettings,
    factoryReset,
    async cacheBiosSettings() {},
  };
}
