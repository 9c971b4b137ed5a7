/**
 * Redfish firmware (drivers/modules/redfish/firmware.py, 29.0.5): the `bios` and `bmc` component
 * versions cached in firmware_information, and the `update` step (deploy, clean and service)
 * flashing each listed image through UpdateService.SimpleUpdate in turn: the step starts the first
 * and returns the flow's wait state; the conductor's periodic firmware checks follow the BMC's task
 * monitor, honour each `wait`, flash the next image with a reboot, and resume the flow after the last.
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
import type { DriverTask, FirmwareInterface, HeartbeatOutcome, JsonObject, StepResult } from '../base';
import { currentFlow, rebootToFinishStep, setAsyncStepFlags } from '../agent/finish-step';
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

/** One pending update as driver_internal_info.redfish_fw_updates keeps it. */
interface PendingUpdate extends FirmwareUpdate {
  task_monitor?: string | null;
  wait_start_time?: string;
}

const PENDING = 'redfish_fw_updates';

function pendingOf(task: DriverTask): PendingUpdate[] {
  return ((task.node.driver_internal_info ?? {})[PENDING] ?? []) as unknown as PendingUpdate[];
}

function setPending(task: DriverTask, updates: PendingUpdate[] | undefined): void {
  const info: JsonObject = { ...(task.node.driver_internal_info ?? {}) };
  if (updates === undefined) delete info[PENDING];
  else info[PENDING] = updates as unknown as JsonObject[];
  task.node.driver_internal_info = info;
}

/**
 * _execute_firmware_update: the first listed image is staged and handed to SimpleUpdate; the BMC's
 * task monitor is recorded with the list, which the periodic check follows from then on.
 */
async function startFirst(task: DriverTask, session: RedfishSession, updates: PendingUpdate[]): Promise<void> {
  const first = updates[0];
  const systems = await session.client.systemCount();
  // Several systems behind one BMC: SimpleUpdate is told which one (sushy-tools needs it).
  const systemId = (task.node.driver_info ?? {}).redfish_system_id;
  const targets = systems > 1 && typeof systemId === 'string' ? [systemId] : undefined;
  const imageUri = await stageFirmware(task, first.url);
  log.debug(`Applying new firmware ${first.url} for ${first.component} on node ${task.node.uuid}`);
  const op = await session.client.simpleUpdate({ imageUri, targets });
  first.task_monitor = op.monitorUri;
  setPending(task, updates);
}

/** _clear_updates: the staged images and the pending list go. */
async function clearUpdates(task: DriverTask): Promise<void> {
  await cleanupStagedFirmware(task);
  setPending(task, undefined);
  const { firmware_cleanup: _gone, ...info } = task.node.driver_internal_info ?? {};
  task.node.driver_internal_info = info;
  await task.saveNode();
}

const CONTINUE: Record<ReturnType<typeof currentFlow>, NonNullable<HeartbeatOutcome>> = {
  clean: { action: 'continue-clean' }, service: { action: 'continue-service' }, deploy: { action: 'continue-deploy' },
};

function failure(task: DriverTask, message: string): HeartbeatOutcome {
  const flow = currentFlow(task);
  return flow === 'clean' ? { action: 'fail-clean', message } : flow === 'service'
    ? { action: 'fail-service', message } : { action: 'fail-deploy', message };
}

/**
 * _continue_updates: a `wait` after the image starts counting; then the next image is flashed (and the
 * node rebooted), or, after the last, the flow goes on with its next step.
 */
async function continueUpdates(task: DriverTask, session: RedfishSession, updates: PendingUpdate[]): Promise<HeartbeatOutcome> {
  const current = updates[0];
  if (current.wait) {
    current.wait_start_time = new Date().toISOString().replace('Z', '+00:00');
    log.debug(`Waiting for ${current.wait} seconds after ${current.component} firmware update ${current.url} on node ${task.node.uuid}`);
    setPending(task, updates);
    await task.saveNode();
    return null;
  }
  if (updates.length === 1) {
    await clearUpdates(task);
    log.info(`Firmware updates completed for node ${task.node.uuid}`);
    return CONTINUE[currentFlow(task)];
  }
  const rest = updates.slice(1);
  await redfishAction(() => startFirst(task, session, rest), (error) => error);
  await task.saveNode();
  await task.powerAction(states.REBOOT);
  return null;
}

/** _check_node_redfish_firmware_update: the wait after an image, else the BMC's task for it. */
async function checkUpdate(task: DriverTask): Promise<HeartbeatOutcome> {
  const updates = pendingOf(task);
  const current = updates[0];
  if (!current) return null;
  const uuid = task.node.uuid;
  let session: RedfishSession;
  try {
    session = await connectRedfish(task);
  } catch (err) {
    // A BMC whose own firmware is being flashed is away for a while.
    log.warning(`Unable to communicate with firmware update service on node ${uuid}. Will try again on the next poll. ` +
      `Error: ${(err as Error).message}`);
    return null;
  }
  if (current.wait_start_time) {
    const elapsed = (Date.now() - Date.parse(current.wait_start_time)) / 1000;
    if (elapsed < (current.wait ?? 0)) return null;
    delete current.wait;
    delete current.wait_start_time;
    return continueUpdates(task, session, updates);
  }
  const polled = current.task_monitor ? await session.client.pollTask(current.task_monitor) : 'gone';
  if (polled === 'processing') {
    log.debug(`Firmware update in progress for node ${uuid}, firmware ${current.url}.`);
    return null;
  }
  if (polled === 'gone') {
    log.warning(`Firmware update completed for node ${uuid}, firmware ${current.url}, but success of the update is unknown. ` +
      'Assuming update was successful.');
    return continueUpdates(task, session, updates);
  }
  const messages = messageText(polled.messages);
  if (polled.taskState === 'Completed' && ['OK', 'Warning'].includes(polled.taskStatus ?? '')) {
    log.info(`Firmware update succeeded for node ${uuid}, firmware ${current.url}: ${polled.messages.map((m) => m.message).join(', ')}`);
    return continueUpdates(task, session, updates);
  }
  await clearUpdates(task);
  return failure(task, `Firmware update failed for node ${uuid}, firmware ${current.url}. Error: ${messages}`);
}

/**
 * The update step: the first image goes to the BMC and the node reboots into its ramdisk; the step
 * waits (async flags: reboot, skip itself on resume, polling) while a periodic check follows the BMC's
 * task, flashes the next image and resumes the flow after the last. The components are cached as the
 * step returns, as Ironic's @cache_firmware_components does.
 */
async function update(task: DriverTask, settings: JsonObject[]): Promise<StepResult> {
  const updates = validateSettings(settings).map((u) => ({ ...u })) as PendingUpdate[];
  const session = await connectRedfish(task);
  log.debug(`Updating Firmware on node ${task.node.uuid} with settings ${pyRepr(settings)}`);
  await redfishAction(() => startFirst(task, session, updates), (error) => error);
  setAsyncStepFlags(task, { reboot: true, skipCurrentStep: true, polling: true });
  await task.saveNode();
  const waitState = await rebootToFinishStep(task, updates[0].wait);
  await cacheComponents(task);
  return waitState;
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
    updatePending: (node) => Boolean((node.driver_internal_info ?? {})[PENDING]),
    checkUpdate,
    async discardUpdates(task) {
      log.error(`Update firmware failed for node ${task.node.uuid}. Discarding remaining firmware updates.`);
      await clearUpdates(task);
    },
  };
}
