// UpdateService: firmware inventory and the SimpleUpdate action (an asynchronous task).

import { RedfishConnection } from './connection';
import { RedfishUnsupportedError } from './errors';
import { listMembers } from './collections';
import { RedfishObject, actionTarget, boolField, linkOf, stringField } from './json';
import { taskMonitorOf } from './tasks';
import { AsyncOperation, FirmwareComponent, SimpleUpdateRequest } from './types';

async function updateServicePath(conn: RedfishConnection): Promise<string> {
  const root = await conn.get(conn.endpoint.rootPrefix);
  const path = linkOf(root, 'UpdateService');
  if (!path) throw new RedfishUnsupportedError(`The Redfish service at ${conn.endpoint.origin} has no UpdateService`);
  return path;
}

export async function getFirmwareInventory(conn: RedfishConnection): Promise<FirmwareComponent[]> {
  const service = await conn.get(await updateServicePath(conn));
  const inventory = linkOf(service, 'FirmwareInventory');
  if (!inventory) throw new RedfishUnsupportedError('The UpdateService has no FirmwareInventory');
  const out: FirmwareComponent[] = [];
  for (const member of await listMembers(conn, inventory)) out.push(componentOf(member, await conn.get(member)));
  return out;
}

/** Starts SimpleUpdate; the returned monitor is polled with waitForTask(). */
export async function simpleUpdate(conn: RedfishConnection, req: SimpleUpdateRequest): Promise<AsyncOperation> {
  const service = await conn.get(await updateServicePath(conn));
  const target = actionTarget(service, '#UpdateService.SimpleUpdate');
  if (!target) throw new RedfishUnsupportedError('The UpdateService offers no #UpdateService.SimpleUpdate action');
  const body: RedfishObject = { ImageURI: req.imageUri, TransferProtocol: req.transferProtocol ?? req.imageUri.split(':')[0].toUpperCase() };
  if (req.targets && req.targets.length > 0) body.Targets = [...req.targets];
  const res = await conn.request('POST', target, body);
  return { monitorUri: res.status === 202 ? taskMonitorOf(res) : null };
}

function componentOf(path: string, json: RedfishObject): FirmwareComponent {
  return {
    path,
    id: stringField(json, 'Id'),
    name: stringField(json, 'Name'),
    version: stringField(json, 'Version'),
    updateable: boolField(json, 'Updateable'),
    softwareId: stringField(json, 'SoftwareId'),
  };
}
