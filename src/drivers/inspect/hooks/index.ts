/**
 * The inspection hooks the agent inspect interface runs ([inspector]hooks, Ironic's
 * `ironic.inspection.hooks` entry points), and the pipeline that runs them
 * (inspect_utils.validate_inspection_hooks / run_inspection_hooks).
 */
import { HardwareInspectionFailure } from '../../../common/errors';
import { log } from '../../../common/log';
import type { Config } from '../../../conf/config';
import type { DriverTask, JsonObject } from '../../base';
import { rootDeviceHook, raidDeviceHook } from './disks';
import { acceleratorsHook, extraHardwareHook } from './extra-data';
import { ramdiskErrorHook, validateInterfacesHook } from './interfaces';
import { localLinkConnectionHook } from './lldp';
import { parseLldpHook } from './parse-lldp';
import { physicalNetworkHook, portsHook } from './ports';
import { architectureHook, bootModeHook, cpuCapabilitiesHook, memoryHook, pciDevicesHook } from './properties';
import type { InspectionHook } from './types';

const HOOKS: ReadonlyMap<string, InspectionHook> = new Map([
  ramdiskErrorHook, validateInterfacesHook, portsHook, physicalNetworkHook, architectureHook, memoryHook,
  cpuCapabilitiesHook, bootModeHook, pciDevicesHook, rootDeviceHook, raidDeviceHook, localLinkConnectionHook,
  parseLldpHook, extraHardwareHook, acceleratorsHook,
].map((hook) => [hook.name, hook]));

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * The enabled hooks in order. An unknown name is a load failure (RuntimeError in Ironic); a hook
 * whose dependencies are not enabled before it fails the inspection.
 */
export function enabledHooks(conf: Config): InspectionHook[] {
  const names = conf.str('inspector', 'hooks').split(',').map((n) => n.trim()).filter((n) => n !== '');
  const missing = names.filter((n) => !HOOKS.has(n));
  if (missing.length) throw new Error(`The following hook(s) are missing or failed to load: ${missing.join(', ')}`);
  const valid: InspectionHook[] = [];
  const errors: string[] = [];
  for (const hook of names.map((n) => HOOKS.get(n)!)) {
    const lacking = (hook.dependencies ?? []).filter((d) => !valid.some((v) => v.name === d));
    if (lacking.length) {
      errors.push(`Hook ${hook.name} requires these missing hooks to be enabled before it: ${lacking.join(', ')}`);
    } else {
      valid.push(hook);
    }
  }
  if (errors.length) {
    const msg = `Some hooks failed to load due to dependency problems: ${errors.join(', ')}`;
    log.error(msg);
    throw new HardwareInspectionFailure({ error: msg });
  }
  return valid;
}

/** _run_preprocess_hooks: every hook runs, failures are reported together. */
async function preprocess(task: DriverTask, inventory: JsonObject, pluginData: JsonObject, hooks: InspectionHook[]): Promise<void> {
  const failures: string[] = [];
  for (const hook of hooks) {
    try {
      await hook.preprocess?.(task, inventory, pluginData);
    } catch (err) {
      log.error(`Preprocess hook: ${hook.name} failed for node ${task.node.uuid} with error: ${errorText(err)}`);
      failures.push(err instanceof HardwareInspectionFailure
        ? `Error in preprocess hook ${hook.name}: ${errorText(err)}`
        : `Unexpected exception ${err instanceof Error ? err.name : 'Error'} during preprocess hook ${hook.name}: ${errorText(err)}`);
    }
  }
  if (failures.length) {
    throw new HardwareInspectionFailure({
      error: `The following failures happened while running preprocess hooks for node ${task.node.uuid}:\n${failures.join('\n')}`,
    });
  }
}

/** run_inspection_hooks: preprocess all, then each hook in order; any failure fails the inspection. */
export async function runInspectionHooks(task: DriverTask, inventory: JsonObject, pluginData: JsonObject,
  hooks: InspectionHook[]): Promise<void> {
  await preprocess(task, inventory, pluginData, hooks);
  for (const hook of hooks) {
    try {
      await hook.run?.(task, inventory, pluginData);
    } catch (err) {
      if (err instanceof HardwareInspectionFailure) throw err;
      log.error(`Unexpected exception while running inspection hooks for node ${task.node.uuid}: ${errorText(err)}`);
      throw new HardwareInspectionFailure({
        error: `Unexpected exception ${err instanceof Error ? err.name : 'Error'} during processing for node: ${task.node.uuid}. Error: ${errorText(err)}`,
      });
    }
  }
}
