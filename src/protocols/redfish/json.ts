// Defensive readers for BMC JSON: a BMC may send anything, so shapes are checked, never assumed.

import { RedfishInvalidResponseError, RedfishMessage } from './errors';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type RedfishObject = { [key: string]: JsonValue };

export function isObject(value: unknown): value is RedfishObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function parseJsonObject(text: string, url: string): RedfishObject {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new RedfishInvalidResponseError(`Invalid JSON from ${url}: ${(err as Error).message}`, url);
  }
  if (!isObject(parsed)) throw new RedfishInvalidResponseError(`Expected a JSON object from ${url}`, url);
  return parsed;
}

export function stringField(obj: RedfishObject, key: string): string | null {
  const v = obj[key];
  return typeof v === 'string' ? v : null;
}

export function boolField(obj: RedfishObject, key: string): boolean | null {
  const v = obj[key];
  return typeof v === 'boolean' ? v : null;
}

export function objectField(obj: RedfishObject, key: string): RedfishObject | null {
  const v = obj[key];
  return isObject(v) ? v : null;
}

export function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The "@odata.id" of a link property such as {"Bios": {"@odata.id": "..."}}. */
export function linkOf(obj: RedfishObject | null, key: string): string | null {
  const v = obj ? obj[key] : undefined;
  return isObject(v) ? stringField(v, '@odata.id') : null;
}

export function linkList(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isObject).map((v) => stringField(v, '@odata.id')).filter((v): v is string => v !== null);
}

export function collectionMembers(collection: RedfishObject): string[] {
  return linkList(collection.Members);
}

/** The target URI of an action ("#ComputerSystem.Reset") in a resource's Actions. */
export function actionTarget(resource: RedfishObject, action: string): string | null {
  const actions = objectField(resource, 'Actions');
  const entry = actions ? objectField(actions, action) : null;
  return entry ? stringField(entry, 'target') : null;
}

export function parseMessages(list: unknown): RedfishMessage[] {
  if (!Array.isArray(list)) return [];
  return list.filter(isObject).map((m) => ({
    messageId: stringField(m, 'MessageId'),
    message: stringField(m, 'Message') ?? '',
    severity: stringField(m, 'Severity') ?? stringField(m, 'MessageSeverity'),
    resolution: stringField(m, 'Resolution'),
    relatedProperties: stringList(m.RelatedProperties),
  }));
}

/** Messages from a Redfish error body: @Message.ExtendedInfo first, else the top-level message. */
export function errorMessages(body: RedfishObject | null): { code: string | null; messages: RedfishMessage[] } {
  const error = body ? objectField(body, 'error') : null;
  if (!error) return { code: null, messages: [] };
  const extended = parseMessages(error['@Message.ExtendedInfo']);
  const code = stringField(error, 'code');
  if (extended.length > 0) return { code, messages: extended };
  const message = stringField(error, 'message');
  return { code, messages: message ? [{ messageId: code, message, severity: null, resolution: null, relatedProperties: [] }] : [] };
}
