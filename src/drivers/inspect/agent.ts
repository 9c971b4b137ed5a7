/**
 * In-band inspection built into Ironic (drivers/modules/inspector/agent.py AgentInspect, with the
 * common part of interface.py): the node boots the agent ramdisk and waits in `inspect wait` until
 * the ramdisk posts its inventory to /v1/continue_inspection; the inventory then goes through the
 * [inspector]hooks. Boot is managed by Ironic when the boot and network interfaces can do it
 * ([inspector]require_managed_boot, unset: required), else the node is simply PXE-booted into an
 * externally served ramdisk.
 */
import { lookup } from 'node:dns/promises';
import { HardwareInspectionFailure, InvalidParameterValue, UnsupportedDriverExtension } from '../../common/errors';
import { log } from '../../common/log';
import * as states from '../../common/states';
import { ironicApiUrl } from '../agent/agent-options';
import { fastTrackEnabled } from '../agent/fast-track';
import { LOOKUP_CACHE_FIELD } from '../../db/repositories/inspection-lookup';
import type { DriverTask, InspectInterface, JsonObject } from '../base';
import { isLoopback } from './hooks/interfaces';
import { enabledHooks, runInspectionHooks } from './hooks';
import { withPowerForNetwork } from '../network/power-for-network';

const MANAGES_BOOT = 'inspector_manage_boot';

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** utils.parse_kernel_params: `key=value` pairs separated by spaces. */
function parseKernelParams(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of text.split(/\s+/).filter((p) => p !== '')) {
    const at = pair.indexOf('=');
    if (at < 0) throw new InvalidParameterValue(`Invalid key-value pair: ${pair}`);
    out[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return out;
}


function requireManagedBoot(task: DriverTask): boolean {
  const set = task.ctx.conf.raw('inspector', 'require_managed_boot');
  return set === null ? true : set === true;
}

/** ironic_manages_boot: the boot and network interfaces both support inspection. */
async function ironicManagesBoot(task: DriverTask, raiseExc: boolean): Promise<boolean> {
  const { boot, network } = task.driver;
  for (const [iface, check] of [[boot, boot.validateInspection], [network, network.validateInspection]] as const) {
    try {
      if (!check) throw new UnsupportedDriverExtension({ driver: task.node.driver, extension: 'validate_inspection' });
      await check.call(iface, task);
    } catch (err) {
      if (!(err instanceof UnsupportedDriverExtension)) throw err;
      log.debug(`The ${iface.kind} interface ${iface.name} of the node ${task.node.uuid} does not support managed boot ` +
        `for in-band inspection or the required options are not populated: ${err.message}`);
      if (raiseExc) throw err;
      return false;
    }
  }
  return true;
}

function setInternal(task: DriverTask, key: string, value: unknown): void {
  const info = { ...(task.node.driver_internal_info ?? {}) };
  if (value === undefined) delete info[key];
  else info[key] = value;
  task.node.driver_internal_info = info;
}

/** _get_bmc_addresses: every `*_address` of driver_info, as given and resolved, loopbacks left out. */
async function bmcAddresses(task: DriverTask): Promise<string[]> {
  const found = new Set<string>();
  for (const [name, raw] of Object.entries(task.node.driver_info ?? {})) {
    if (!name.endsWith('_address') || typeof raw !== 'string') continue;
    let address = raw;
    if (address.includes('//')) {
      try {
        address = new URL(address).hostname;
      } catch {
        continue;
      }
    }
    address = address.replace(/^\[+/, '').replace(/\]+$/, '');
    try {
      for (const { address: ip } of await lookup(address, { all: true })) if (!isLoopback(ip)) found.add(ip);
    } catch (err) {
      log.warning(`Failed to resolve the hostname (${address}) in ${name} of node ${task.node.uuid}: ${errorText(err)}`);
      continue;
    }
    if (!isLoopback(address)) found.add(address);
  }
  return [...found];
}

/** cache_lookup_addresses: where /v1/continue_inspection finds the node by its BMC address. */
async function cacheLookupAddresses(task: DriverTask): Promise<void> {
  const addresses = await bmcAddresses(task);
  setInternal(task, LOOKUP_CACHE_FIELD, addresses.length ? addresses : undefined);
}

function clearLookupAddresses(task: DriverTask): boolean {
  if (!Object.hasOwn(task.node.driver_internal_info ?? {}, LOOKUP_CACHE_FIELD)) return false;
  setInternal(task, LOOKUP_CACHE_FIELD, undefined);
  return true;
}

/** tear_down_managed_boot: undo the ramdisk boot, then power the node off (or reboot it when it must stay on). */
async function tearDownManagedBoot(task: DriverTask, alwaysPowerOff = false): Promise<string[]> {
  const errors: string[] = [];
  const managed = (task.node.driver_internal_info ?? {})[MANAGES_BOOT];
  setInternal(task, MANAGES_BOOT, undefined);
  if (managed) {
    try {
      await task.driver.boot.cleanUpRamdisk(task, 'deploy');
    } catch (err) {
      errors.push(`unable to clean up ramdisk boot: ${errorText(err)}`);
    }
    try {
      await withPowerForNetwork(task, async () => {
        await task.driver.network.removeInspectionNetwork?.(task);
      });
    } catch (err) {
      errors.push(`unable to remove inspection ports: ${errorText(err)}`);
    }
  }
  if ((managed || alwaysPowerOff) && task.ctx.conf.bool('inspector', 'power_off') && !fastTrackEnabled(task)) {
    const reboot = Boolean(task.node.disable_power_off);
    try {
      await task.powerAction(reboot ? states.REBOOT : states.POWER_OFF);
    } catch (err) {
      errors.push(`${reboot ? 'unable to reboot the node' : 'unable to power off the node'}: ${errorText(err)}`);
    }
  }
  return errors;
}

/** inspection_error_handler with raise_exc: the error is recorded and raised. */
async function failInspection(task: DriverTask, error: string, cleanUp: boolean): Promise<never> {
  if (cleanUp) await tearDownManagedBoot(task);
  task.node.last_error = error;
  await task.saveNode();
  throw new HardwareInspectionFailure({ error });
}

async function powerOnOrReboot(task: DriverTask): Promise<void> {
  await task.powerAction(task.node.disable_power_off ? states.REBOOT : states.POWER_ON);
}

/** prepare_managed_inspection + power on: the ramdisk learns where to post its inventory. */
async function startManaged(task: DriverTask): Promise<void> {
  const base = ironicApiUrl(task).replace(/\/+$/, '');
  const endpoint = base.endsWith('/v1') ? `${base}/continue_inspection` : `${base}/v1/continue_inspection`;
  const params: JsonObject = {
    ...parseKernelParams(task.ctx.conf.str('inspector', 'extra_kernel_params')),
    'ipa-inspection-callback-url': endpoint,
  };
  if (fastTrackEnabled(task)) params['ipa-api-url'] = ironicApiUrl(task);
  if (!task.node.disable_power_off) await task.powerAction(states.POWER_OFF);
  await withPowerForNetwork(task, async () => {
    await task.driver.network.addInspectionNetwork?.(task);
  });
  await task.driver.boot.prepareRamdisk(task, params, 'deploy');
  await powerOnOrReboot(task);
}

/** Unmanaged: PXE-boot the node into whatever ramdisk the site's boot environment serves. */
async function startUnmanaged(task: DriverTask): Promise<void> {
  try {
    if (!task.node.disable_power_off) await task.powerAction(states.POWER_OFF);
    await task.driver.management.setBootDevice(task, 'pxe', false);
    await powerOnOrReboot(task);
  } catch (err) {
    await failInspection(task, `unable to start inspection: ${errorText(err)}`, false);
  }
}

async function inspectHardware(task: DriverTask): Promise<string> {
  const managed = await ironicManagesBoot(task, requireManagedBoot(task));
  setInternal(task, MANAGES_BOOT, managed);
  await cacheLookupAddresses(task);
  await task.saveNode();
  if (managed) {
    try {
      await startManaged(task);
    } catch (err) {
      await failInspection(task, `unable to start inspection: ${errorText(err)}`, true);
    }
  } else {
    await startUnmanaged(task);
  }
  return states.INSPECTWAIT;
}

/** clean_up(finish=False): a tear-down failure fails the inspection without raising. */
async function cleanUp(task: DriverTask): Promise<void> {
  const errors = await tearDownManagedBoot(task, true);
  if (errors.length === 0) return;
  const msg = `Inspection clean up failed: ${errors.join(', ')}`;
  log.error(`Inspection clean up failed for node ${task.node.uuid}: ${errors.join(', ')}`);
  task.node.last_error = msg;
  await task.saveNode();
  throw new HardwareInspectionFailure({ error: msg });
}

export function createAgentInspect(): InspectInterface {
  return {
    kind: 'inspect', name: 'agent', className: 'AgentInspect',
    properties: () => ({}),
    async validate(task) {
      parseKernelParams(task.ctx.conf.str('inspector', 'extra_kernel_params'));
      enabledHooks(task.ctx.conf);
      if (requireManagedBoot(task)) await ironicManagesBoot(task, true);
    },
    inspectHardware,
    async abort(task) {
      if (clearLookupAddresses(task)) await task.saveNode();
      await cleanUp(task);
    },
    async continueInspection(task, inventory, pluginData) {
      try {
        await runInspectionHooks(task, inventory, pluginData, enabledHooks(task.ctx.conf));
      } catch (err) {
        await failInspection(task, `failed to run inspection hooks: ${errorText(err)}`, true);
      }
      await cleanUp(task);
      return null;
    },
  };
}
