/**
 * Redfish BIOS (drivers/modules/redfish/bios.py): apply_configuration and factory_reset steps and
 * the bios_settings cache. Ironic stages the change, reboots and verifies when the agent comes
 * back; ironic-ts has no agent in that loop, so the step reboots through the power interface and
 * verifies at once, within the same step.
 */
import { RedfishError } from '../../common/errors';
import { pyRepr } from '../../common/python/repr';
import * as states from '../../common/states';
import * as biosSettings from '../../db/repositories/bios';
import * as redfish from '../../protocols/redfish';
import type { BiosInterface, DriverTask, JsonObject, StepResult } from '../base';
import { declareSteps, type DeclaredStep } from '../declared-steps';
import { REDFISH_INTERFACE, connectRedfish, redfishAction } from './common';

/** The bios_settings column is a string: values are stored the way Python's str() prints them. */
function storedValue(value: redfish.BiosValue): string | null {
  if (value === null) return null;
  return typeof value === 'string' ? value : pyRepr(value);
}

async function biosOf(task: DriverTask, client: redfish.RedfishClient): Promise<redfish.BiosInfo> {
  try {
    return await client.getBios();
  } catch (err) {
    if (!(err instanceof redfish.RedfishUnsupportedError)) throw err;
    // Ironic words this "factory reset" for apply_configuration as well.
    throw new RedfishError({
      error: `Redfish BIOS factory reset failed for node ${task.node.uuid}, because BIOS settings are not supported.`,
    });
  }
}

/** Reboots so staged settings take effect (reboot_to_finish_step) and records the new power state. */
async function rebootToApply(task: DriverTask): Promise<void> {
  await task.driver.power.reboot(task);
  task.node.power_state = states.POWER_ON;
  await task.saveNode();
}

/** cache_bios_settings: the BMC's current attributes written to bios_settings (create/update/delete). */
async function cacheSettings(task: DriverTask): Promise<void> {
  const { client } = await connectRedfish(task);
  const bios = await redfishAction(() => biosOf(task, client), (error) => error);
  const wanted = new Map(Object.entries(bios.attributes).map(([name, v]) => [name, storedValue(v)]));
  await biosSettings.replaceAll(task.ctx.db, task.node.id, wanted, '1.1');
}

async function applyConfiguration(task: DriverTask, settings: JsonObject[]): Promise<StepResult> {
  const uuid = task.node.uuid;
  const attributes: Record<string, redfish.BiosValue> = {};
  for (const s of settings) attributes[String(s.name)] = s.value as redfish.BiosValue;
  const { client } = await connectRedfish(task);
  const bios = await redfishAction(() => biosOf(task, client), (error) => error);
  const applyTime = bios.supportedApplyTimes.includes('OnReset') ? 'OnReset' : undefined;
  await redfishAction(() => client.applyBiosAttributes(attributes, applyTime),
    (error) => `Redfish BIOS apply configuration failed for node ${uuid}. Error: ${error}`);
  await rebootToApply(task);
  const current = (await redfishAction(() => client.getBios(), (error) => error)).attributes;
  const notUpdated = Object.fromEntries(Object.entries(attributes).filter(([name, v]) => current[name] !== v));
  if (Object.keys(notUpdated).length) {
    throw new RedfishError({
      error: `Redfish BIOS apply_configuration step failed for node ${uuid}. Attributes ${pyRepr(notUpdated)} are not updated.`,
    });
  }
  await cacheSettings(task);
  return null;
}

async function factoryReset(task: DriverTask): Promise<StepResult> {
  const { client } = await connectRedfish(task);
  await biosOf(task, client);
  await redfishAction(() => client.resetBiosToDefaults(),
    (error) => `Redfish BIOS factory reset failed for node ${task.node.uuid}. Error: ${error}`);
  await rebootToApply(task);
  await cacheSettings(task);
  return null;
}

const STEPS: readonly DeclaredStep[] = [
  {
    step: 'apply_configuration', kinds: ['clean', 'deploy'], priority: 0,
    argsinfo: { settings: { description: 'A list of BIOS settings to be applied', required: true } },
    run: (task, args) => applyConfiguration(task, (args.settings ?? []) as JsonObject[]),
  },
  { step: 'factory_reset', kinds: ['clean', 'deploy'], priority: 0, run: factoryReset },
];

export function createRedfishBios(): BiosInterface {
  return {
    kind: 'bios', className: 'RedfishBIOS', ...REDFISH_INTERFACE,
    ...declareSteps('bios', STEPS),
    applyConfiguration,
    factoryReset,
    cacheBiosSettings: cacheSettings,
  };
}
