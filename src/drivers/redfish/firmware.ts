/**
 * Redfish firmware (drivers/modules/redfish/firmware.py, 29.0.5): the `bios` and `bmc` component
 * versions cached in firmware_information, and the `update` step (deploy, clean and service)
 * flashing each listed image through UpdateService.SimpleUpdate in turn. Ironic reboots into its
 * ramdisk and polls the BMC's task from a periodic; ironic-ts has no agent in that loop, so the
 * step reboots through the power interface and awaits each task (bounded by
 * [conductor]clean_callback_timeout) and each `wait` within the step, as the BIOS steps do.
 */
import { InvalidParameterValue, RedfishError, UnsupportedDriverExtension } from '../../common/errors';
import { type Schema, validationErrorText } from '../../common/jsonschema';
import { log } from '../../common/log';
import { pyRepr } from '../../common/python/repr';
import { pyStr } from '../../common/python/str';
import * as states from '../../common/states';
import * as firmwareRows from '../../db/repositories/firmware';
import type { FirmwareComponentRecord } from '../../db/models';
import type { RedfishMessage } from '../../protocols/redfish';
import type { DriverTask, FirmwareInterface, JsonObject, StepResult } from '../base';
import { declareSteps, type DeclaredStep } from '../declared-steps';
import { REDFISH_INTERFACE, RedfishSession, connectRedfish, redfishAction } from './common';
import { cleanupStagedFirmware, stageFirmware } from './firmware-staging';

/** redfish_utils.FIRMWARE_COMPONENTS. */
const COMPONENTS = ['bios', 'bmc'];

/**
 * firmware_utils._FIRMWARE_INTERFACE_UPDATE_SCHEMA. Its annotations ($schema, title) are not
 * validated but appear in Ironic's error text, which prints the failing schema.
 */
const UPDATE_SCHEMA = {
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'update_firmware clean step schema',
  type: 'array',
  minItems: 1,
  items: {
    type: 'object',
    required: ['component', 'url'],
    properties: {
      component: { description: 'name of the firmware component to be updated', type: 'string', enum: COMPONENTS },
      url: { description: 'URL for firmware file', type: 'string', minLength: 1 },
      wait: { description: 'optional wait time for firmware update', type: 'integer', minimum: 1 },
    },
    additionalProperties: false,
  },
} as unknown as Schema;

interface FirmwareUpdate {
  component: string;
  url: string;
  wait?: number;
}

function validateSettings(settings: unknown): FirmwareUpdate[] {
  const error = validationErrorText(settings, UPDATE_SCHEMA);
  if (error !== null) throw new InvalidParameterValue(`Invalid firmware update ${pyStr(settings)}. Errors: ${error}`);
  return settings as FirmwareUpdate[];
}

/** The BIOS version of the system and the firmware version of its first manager, as far as the BMC tells. */
async function readVersions(task: DriverTask, session: RedfishSession): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (session.system.biosVersion) out.set('bios', session.system.biosVersion);
  else log.debug(`Could not retrieve BiosVersion in node ${task.node.uuid} system ${session.system.path}`);
  const manager = session.system.managerPaths[0];
  if (!manager) {
    log.warning(`No manager available to retrieve Firmware from the bmc of node ${task.node.uuid}`);
    return out;
  }
  const version = (await session.client.connection.get(manager)).FirmwareVersion;
  if (typeof version === 'string' && version !== '') out.set('bmc', version);
  else log.debug(`Could not retrieve FirmwareVersion in node ${task.node.uuid} manager ${manager}`);
  return out;
}

/** FirmwareComponentList.sync_firmware_components: does a reading change the stored component? */
function changed(row: FirmwareComponentRecord, version: string): boolean {
  if (row.last_version_flashed === null) return version !== row.current_version;
  return version !== row.last_version_flashed || version !== row.current_version;
}

/**
 * cache_firmware_components: a new component is created with its version as initial and current
 * version; a changed one gets it as current and last flashed version.
 */
async function cacheComponents(task: DriverTask): Promise<void> {
  const session = await connectRedfish(task);
  const versions = await redfishAction(() => readVersions(task, session), (error) => error);
  if (versions.size === 0) {
    const message = `Cannot retrieve firmware for node ${task.node.uuid}: no supported components`;
    log.error(message);
    throw new UnsupportedDriverExtension(message);
  }
  const { db } = task.ctx;
  const existing = new Map((await firmwareRows.list(db, task.node.id)).map((r) => [r.component, r]));
  for (const [component, version] of versions) {
    const row = existing.get(component);
    if (!row) {
      await firmwareRows.create(db, task.node.id, { component, initial_version: version, current_version: version });
    } else if (changed(row, version)) {
      await firmwareRows.update(db, task.node.id, component, { current_version: version, last_version_flashed: version });
    }
  }
}

/** The task's messages as Ironic joins them into its failure text. */
function messageText(messages: readonly RedfishMessage[]): string {
  return messages.map((m) => m.message).join(',  ');
}

/** _execute_firmware_update + the status check: SimpleUpdate, the reboot, the BMC's task, then `wait`. */
async function flash(task: DriverTask, session: RedfishSession, update: FirmwareUpdate, systems: number): Promise<void> {
  const { client } = session;
  const uuid = task.node.uuid;
  // Several systems behind one BMC: SimpleUpdate is told which one (sushy-tools needs it).
  const systemId = (task.node.driver_info ?? {}).redfish_system_id;
  const targets = systems > 1 && typeof systemId === 'string' ? [systemId] : undefined;
  const imageUri = await stageFirmware(task, update.url);
  log.debug(`Applying new firmware ${update.url} for ${update.component} on node ${uuid}`);
  const op = await client.simpleUpdate({ imageUri, targets });
  await task.driver.power.reboot(task);
  task.node.power_state = states.POWER_ON;
  await task.saveNode();
  if (op.monitorUri) {
    const seconds = task.ctx.conf.int('conductor', 'clean_callback_timeout') || 1800;
    try {
      const result = await client.waitForTask(op.monitorUri, seconds * 1000);
      if (result.taskStatus !== null && !['OK', 'Warning'].includes(result.taskStatus)) {
        throw new RedfishError({ error: `Firmware update failed for node ${uuid}, firmware ${update.url}. ` +
          `Error: ${messageText(result.messages)}` });
      }
      log.info(`Firmware update succeeded for node ${uuid}, firmware ${update.url}: ${messageText(result.messages)}`);
    } catch (err) {
      if (err instanceof RedfishError) throw err;
      const messages = (err as { messages?: RedfishMessage[] }).messages ?? [];
      throw new RedfishError({ error: `Firmware update failed for node ${uuid}, firmware ${update.url}. ` +
        `Error: ${messages.length > 0 ? messageText(messages) : (err as Error).message}` });
    }
  }
  if (update.wait) await new Promise((resolve) => setTimeout(resolve, update.wait! * 1000));
}

/** The update step; the components are cached afterwards, as Ironic's @cache_firmware_components does. */
async function update(task: DriverTask, settings: JsonObject[]): Promise<StepResult> {
  const updates = validateSettings(settings);
  const session = await connectRedfish(task);
  log.debug(`Updating Firmware on node ${task.node.uuid} with settings ${pyRepr(settings)}`);
  const systems = await redfishAction(() => session.client.systemCount(), (error) => error);
  try {
    for (const one of updates) {
      await redfishAction(() => flash(task, session, one, systems), (error) => error);
    }
  } finally {
    await cleanupStagedFirmware(task);
  }
  log.info(`Firmware updates completed for node ${task.node.uuid}`);
  await cacheComponents(task);
  return null;
}

const ARGSINFO = { settings: { description: 'A list of dicts with firmware components to be updated', required: true } };

const STEPS: readonly DeclaredStep[] = [
  {
    step: 'update', kinds: ['deploy', 'clean', 'service'], priority: 0, abortable: false, requiresRamdisk: true,
    argsinfo: ARGSINFO, run: (task, args) => update(task, (args.settings ?? []) as JsonObject[]),
  },
];

export function createRedfishFirmware(): FirmwareInterface {
  return {
    kind: 'firmware', className: 'RedfishFirmware', ...REDFISH_INTERFACE,
    ...declareSteps('firmware', STEPS),
    update,
    async cacheFirmwareComponents(task) {
      await cacheComponents(task);
    },
  };
}
