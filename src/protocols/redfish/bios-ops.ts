// BIOS attributes (Bios + Bios/Settings) and the SecureBoot resource of a system.

import { RedfishConnection } from './connection';
import { RedfishInvalidResponseError, RedfishUnsupportedError } from './errors';
import { RedfishObject, actionTarget, boolField, isObject, linkOf, objectField, stringField, stringList } from './json';
import { BiosInfo, BiosValue, SecureBootInfo } from './types';

async function subresourcePath(conn: RedfishConnection, systemPath: string, key: string): Promise<string> {
  const system = await conn.get(systemPath);
  const path = linkOf(system, key);
  if (!path) throw new RedfishUnsupportedError(`System ${systemPath} has no ${key} resource`);
  return path;
}

export async function getBios(conn: RedfishConnection, systemPath: string): Promise<BiosInfo> {
  const path = await subresourcePath(conn, systemPath, 'Bios');
  const bios = await conn.get(path);
  const settings = objectField(bios, '@Redfish.Settings');
  const settingsPath = linkOf(settings, 'SettingsObject');
  let pending: Record<string, BiosValue> | null = null;
  if (settingsPath) pending = attributesOf(await conn.get(settingsPath), settingsPath);
  return {
    path,
    attributes: attributesOf(bios, path),
    pendingAttributes: pending,
    settingsPath,
    supportedApplyTimes: settings ? stringList(settings.SupportedApplyTimes) : [],
  };
}

/**
 * Stages BIOS attributes. With a settings object (the norm) they apply on the next reset; a BMC
 * without one takes them on the Bios resource directly. Attribute names and values are the BMC's to
 * judge: its refusal comes back as a typed error carrying its @Message.ExtendedInfo.
 */
export async function applyBiosAttributes(conn: RedfishConnection, systemPath: string, attributes: Record<string, BiosValue>, applyTime?: string): Promise<void> {
  const bios = await getBios(conn, systemPath);
  const target = bios.settingsPath ?? bios.path;
  const body: RedfishObject = { Attributes: { ...attributes } };
  if (applyTime) body['@Redfish.SettingsApplyTime'] = { ApplyTime: applyTime };
  await conn.patch(target, body, await conn.etagOf(target));
}

export async function resetBiosToDefaults(conn: RedfishConnection, systemPath: string): Promise<void> {
  const path = await subresourcePath(conn, systemPath, 'Bios');
  const target = actionTarget(await conn.get(path), '#Bios.ResetBios');
  if (!target) throw new RedfishUnsupportedError(`Bios ${path} offers no #Bios.ResetBios action`);
  await conn.request('POST', target, {});
}

export async function getSecureBoot(conn: RedfishConnection, systemPath: string): Promise<SecureBootInfo> {
  const path = await subresourcePath(conn, systemPath, 'SecureBoot');
  const json = await conn.get(path);
  return {
    path,
    enabled: boolField(json, 'SecureBootEnable'),
    currentBoot: stringField(json, 'SecureBootCurrentBoot'),
    mode: stringField(json, 'SecureBootMode'),
  };
}

export async function setSecureBoot(conn: RedfishConnection, systemPath: string, enabled: boolean): Promise<void> {
  const path = await subresourcePath(conn, systemPath, 'SecureBoot');
  await conn.patch(path, { SecureBootEnable: enabled }, await conn.etagOf(path));
}

function attributesOf(json: RedfishObject, path: string): Record<string, BiosValue> {
  const attrs = json.Attributes;
  if (attrs === undefined || attrs === null) return {};
  if (!isObject(attrs)) throw new RedfishInvalidResponseError(`Attributes of ${path} is not an object`, path);
  const out: Record<string, BiosValue> = {};
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[k] = v;
  }
  return out;
}
