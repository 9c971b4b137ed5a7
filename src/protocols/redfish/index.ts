// Public surface of the Redfish client.

export { RedfishClient } from './client';
export type { RedfishClientOptions } from './client';
export { RedfishConnection } from './connection';
export type { RedfishConnectionOptions } from './connection';
export type { AuthType, AuthMode } from './auth';
export { requireJson } from './responses';
export type { RedfishResponse } from './responses';
export { parseRedfishAddress, systemPathFromId } from './address';
export type { RedfishEndpoint } from './address';
export type { VerifyCa } from './tls';
export { waitForTask, taskMonitorOf } from './tasks';
export { listMembers } from './collections';
export type { TaskResult, WaitOptions } from './tasks';
export type { VirtualMediaGroups } from './virtual-media-ops';
export { clearSessionCache, cachedSessionCount } from './session-cache';
export * from './errors';
export * from './types';
export type { RedfishObject, JsonValue } from './json';
