// ComputerSystem operations: read the system, Reset action, boot override, indicator LED.

import { RedfishConnection } from './connection';
import { RedfishInvalidResponseError, RedfishUnsupportedError } from './errors';
import { RedfishObject, actionTarget, linkList, linkOf, objectField, stringField, stringList } from './json';
import { BOOT_MODES, BOOT_OVERRIDE_ENABLED, BootOverrideRequest, ResetType, SystemInfo } from './types';

interface SystemDocument {
  path: string;
  json: RedfishObject;
  etag: string | null;
}

export async function readSystem(conn: RedfishConnection, path: string): Promise<SystemDocument> {
  const res = await conn.request('GET', path);
  if (!res.json) throw new RedfishInvalidResponseError(`Empty ComputerSystem at ${res.url}`, res.url);
  const etag = typeof res.headers.etag === 'string' ? res.headers.etag : stringField(res.json, '@odata.etag');
  return { path, json: res.json, etag };
}

export function systemInfo(doc: SystemDocument): SystemInfo {
  const j = doc.json;
  const boot = objectField(j, 'Boot') ?? {};
  const actions = objectField(j, 'Actions');
  const reset = actions ? objectField(actions, '#ComputerSystem.Reset') : null;
  const links = objectField(j, 'Links') ?? {};
  return {
    path: doc.path,
    id: stringField(j, 'Id'),
    name: stringField(j, 'Name'),
    uuid: stringField(j, 'UUID'),
    manufacturer: stringField(j, 'Manufacturer'),
    model: stringField(j, 'Model'),
    serialNumber: stringField(j, 'SerialNumber'),
    powerState: stringField(j, 'PowerState'),
    indicatorLed: stringField(j, 'IndicatorLED'),
    biosVersion: stringField(j, 'BiosVersion'),
    boot: {
      target: stringField(boot, 'BootSourceOverrideTarget'),
      enabled: stringField(boot, 'BootSourceOverrideEnabled'),
      mode: stringField(boot, 'BootSourceOverrideMode'),
      allowableTargets: stringList(boot['BootSourceOverrideTarget@Redfish.AllowableValues']),
      allowableModes: stringList(boot['BootSourceOverrideMode@Redfish.AllowableValues']),
    },
    allowedResetTypes: reset ? stringList(reset['ResetType@Redfish.AllowableValues']) : [],
    managerPaths: linkList(links.ManagedBy),
    chassisPaths: linkList(links.Chassis),
    raw: j,
  };
}

export async function resetSystem(conn: RedfishConnection, path: string, type: ResetType): Promise<void> {
  const doc = await readSystem(conn, path);
  const target = actionTarget(doc.json, '#ComputerSystem.Reset');
  if (!target) throw new RedfishUnsupportedError(`System ${path} offers no #ComputerSystem.Reset action`);
  const allowed = systemInfo(doc).allowedResetTypes;
  if (allowed.length > 0 && !allowed.includes(type)) {
    throw new RedfishUnsupportedError(`Reset type ${type} is not supported by ${path} (allowed: ${allowed.join(', ')})`);
  }
  await conn.request('POST', target, { ResetType: type });
}

/**
 * Sets BootSourceOverrideTarget/Enabled/Mode. Properties that the BMC keeps in a pending settings
 * object (@Redfish.Settings on the system) are written there, the rest on the system itself.
 */
export async function setBootOverride(conn: RedfishConnection, path: string, req: BootOverrideRequest): Promise<void> {
  const doc = await readSystem(conn, path);
  const wanted = bootPatch(systemInfo(doc), req);
  if (Object.keys(wanted).length === 0) return;
  const settingsPath = linkOf(objectField(doc.json, '@Redfish.Settings'), 'SettingsObject');
  const direct: RedfishObject = {};
  const staged: RedfishObject = {};
  let settingsEtag: string | null = null;
  if (settingsPath) {
    const res = await conn.request('GET', settingsPath);
    const settingsBoot = res.json ? objectField(res.json, 'Boot') ?? {} : {};
    settingsEtag = typeof res.headers.etag === 'string' ? res.headers.etag : null;
    for (const [k, v] of Object.entries(wanted)) (Object.hasOwn(settingsBoot, k) ? staged : direct)[k] = v;
  } else {
    Object.assign(direct, wanted);
  }
  if (settingsPath && Object.keys(staged).length > 0) await conn.patch(settingsPath, { Boot: staged }, settingsEtag);
  if (Object.keys(direct).length > 0) await conn.patch(path, { Boot: direct }, doc.etag);
}

function bootPatch(info: SystemInfo, req: BootOverrideRequest): RedfishObject {
  const patch: RedfishObject = {};
  if (req.target !== undefined) {
    const allowed = info.boot.allowableTargets;
    if (allowed.length > 0 && !allowed.includes(req.target)) {
      throw new RedfishUnsupportedError(`Boot target ${req.target} is not supported by ${info.path} (allowed: ${allowed.join(', ')})`);
    }
    patch.BootSourceOverrideTarget = req.target;
  }
  if (req.enabled !== undefined) {
    if (!(BOOT_OVERRIDE_ENABLED as readonly string[]).includes(req.enabled)) {
      throw new RedfishUnsupportedError(`BootSourceOverrideEnabled must be one of ${BOOT_OVERRIDE_ENABLED.join(', ')}`);
    }
    patch.BootSourceOverrideEnabled = req.enabled;
  }
  if (req.mode !== undefined) {
    const allowed = info.boot.allowableModes.length > 0 ? info.boot.allowableModes : [...BOOT_MODES];
    if (!allowed.includes(req.mode)) throw new RedfishUnsupportedError(`Boot mode ${req.mode} is not supported by ${info.path}`);
    patch.BootSourceOverrideMode = req.mode;
  }
  return patch;
}

export async function setIndicatorLed(conn: RedfishConnection, path: string, state: 'Lit' | 'Blinking' | 'Off'): Promise<void> {
  const doc = await readSystem(conn, path);
  await conn.patch(path, { IndicatorLED: state }, doc.etag);
}
