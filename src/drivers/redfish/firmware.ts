/**
 * Redfish firmware (drivers/modules/redfish/firmware.py of later Ironic): the `bios` and `bmc`
 * components cached in firmware_information, and an `update` step flashing them through
 * UpdateService.SimpleUpdate. The BMC's task is awaited within the step, bounded by
 * [conductor]clean_callback_timeout, instead of Ironic's periodic status polling.
 */
import { InvalidParameterValue, RedfishError } from '../../common/errors';
import { pyRepr } from '../../common/python/repr';
import * as firmwareRows from '../../db/repositories/firmware';
import type { RedfishClient } from '../../protocols/redfish';
import type { DriverTask, FirmwareInterface, JsonObject, StepResult } from '../base';
import { declareSteps, type DeclaredStep } from '../declared-steps';
import { REDFISH_INTERFACE, RedfishSession, connectRedfish, redfishAction } from './common';

const COMPONENTS = ['bios', 'bmc'] as const;
type Component = (typeof COMPONENTS)[number];

/** Current versions of the system's BIOS and of its (first) managing BMC. */
async function readVersions(session: RedfishSession): Promise<Map<Component, string>> {
  const out = new Map<Component, string>();
  if (session.system.biosVersion) out.set('bios', session.system.biosVersion);
  const manager = session.system.managerPaths[0];
  if (manager) {
    const version = (await session.client.connection.get(manager)).FirmwareVersion;
    if (typeof version === 'string' && version !== '') out.set('bmc', version);
  }
  return out;
}

/** Creates missing rows (initial_version) and moves current_version of the others. */
async function cacheComponents(task: DriverTask, flashed: ReadonlySet<Component> = new Set()): Promise<void> {
  const session = await connectRedfish(task);
  const versions = await redfishAction(() => readVersions(session), (error) => error);
  const { db } = task.ctx;
  const existing = new Map((await firmwareRows.list(db, task.node.id)).map((r) => [r.component, r]));
  for (const [component, version] of versions) {
    const row = existing.get(component);
    const lastFlashed = flashed.has(component) ? { last_version_flashed: version } : {};
    if (!row) {
      await firmwareRows.create(db, task.node.id, { component, initial_version: version, current_version: version, ...lastFlashed });
    } else if (row.current_version !== version || flashed.has(component)) {
      await firmwareRows.update(db, task.node.id, component, { current_version: version, ...lastFlashed });
    }
  }
}

function parseSettings(settings: JsonObject[]): Array<{ component: Component; url: string }> {
  return settings.map((s) => {
    const component = s.component;
    if (typeof component !== 'string' || !(COMPONENTS as readonly string[]).includes(component)) {
      throw new InvalidParameterValue(`Unsupported firmware component ${pyRepr(component)}; supported are ` +
        `${pyRepr([...COMPONENTS])}`);
    }
    if (typeof s.url !== 'string' || s.url === '') {
      throw new InvalidParameterValue(`Firmware update of component ${component} needs a url`);
    }
    return { component: component as Component, url: s.url };
  });
}

async function flash(task: DriverTask, session: RedfishSession, component: Component, url: string): Promise<void> {
  const { client, system } = session;
  const target = component === 'bios' ? system.path : system.managerPaths[0];
  if (!target) throw new RedfishError({ error: `Node ${task.node.uuid} has no BMC manager to update` });
  const op = await client.simpleUpdate({ imageUri: url, targets: [target] });
  if (op.monitorUri) await waitForTask(task, client, op.monitorUri);
}

async function waitForTask(task: DriverTask, client: RedfishClient, monitor: string): Promise<void> {
  const seconds = task.ctx.conf.int('conductor', 'clean_callback_timeout') || 1800;
  await client.waitForTask(monitor, seconds * 1000);
}

async function update(task: DriverTask, settings: JsonObject[]): Promise<StepResult> {
  const wanted = parseSettings(settings);
  await cacheComponents(task);
  const session = await connectRedfish(task);
  for (const { component, url } of wanted) {
    await redfishAction(() => flash(task, session, component, url),
      (error) => `Firmware update failed for node ${task.node.uuid}, firmware ${url}. Error: ${error}`);
  }
  await cacheComponents(task, new Set(wanted.map((w) => w.component)));
  return null;
}

const STEPS: readonly DeclaredStep[] = [
  {
    step: 'update', kinds: ['clean', 'service'], priority: 0,
    argsinfo: { settings: { description: 'A list of dicts with firmware components to be updated', required: true } },
    run: (task, args) => update(task, (args.settings ?? []) as JsonObject[]),
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
