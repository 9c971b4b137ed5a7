// Virtual media of the managers (BMCs) of a system, plus the system's own VirtualMedia collection
// on newer BMCs: listing, InsertMedia and EjectMedia (with the PATCH fallback of older firmware).

import { RedfishConnection } from './connection';
import { RedfishBadRequestError, RedfishHttpError, RedfishUnsupportedError } from './errors';
import { listMembers } from './collections';
import { RedfishObject, actionTarget, boolField, linkList, linkOf, objectField, stringField, stringList } from './json';
import { InsertMediaOptions, VirtualMediaDevice } from './types';

export async function listVirtualMedia(conn: RedfishConnection, systemPath: string): Promise<VirtualMediaDevice[]> {
  const system = await conn.get(systemPath);
  const collections: string[] = [];
  for (const managerPath of linkList(objectField(system, 'Links')?.ManagedBy)) {
    const vm = linkOf(await conn.get(managerPath), 'VirtualMedia');
    if (vm) collections.push(vm);
  }
  const own = linkOf(system, 'VirtualMedia');
  if (own) collections.push(own);
  const devices: VirtualMediaDevice[] = [];
  for (const c of collections) {
    for (const member of await listMembers(conn, c)) devices.push(deviceOf(member, await conn.get(member)));
  }
  return devices;
}

/** A system's virtual media as Ironic looks them up: its own collection, then each manager's (null: none). */
export interface VirtualMediaGroups {
  system: VirtualMediaDevice[] | null;
  managers: Array<VirtualMediaDevice[] | null>;
}

async function devicesIn(conn: RedfishConnection, collection: string | null): Promise<VirtualMediaDevice[] | null> {
  if (!collection) return null;
  const devices: VirtualMediaDevice[] = [];
  for (const member of await listMembers(conn, collection)) devices.push(deviceOf(member, await conn.get(member)));
  return devices;
}

export async function virtualMediaGroups(conn: RedfishConnection, systemPath: string): Promise<VirtualMediaGroups> {
  const system = await conn.get(systemPath);
  const managers: Array<VirtualMediaDevice[] | null> = [];
  for (const managerPath of linkList(objectField(system, 'Links')?.ManagedBy)) {
    managers.push(await devicesIn(conn, linkOf(await conn.get(managerPath), 'VirtualMedia') ?? null));
  }
  return { system: await devicesIn(conn, linkOf(system, 'VirtualMedia') ?? null), managers };
}

/** InsertMedia of one device (inserted, write-protected unless opts say otherwise). */
export async function insertMediaInto(conn: RedfishConnection, device: VirtualMediaDevice, image: string,
  opts: InsertMediaOptions = {}): Promise<void> {
  await insertInto(conn, device, image, opts);
}

/** EjectMedia of one device. */
export async function ejectMediaFrom(conn: RedfishConnection, device: VirtualMediaDevice): Promise<void> {
  await ejectFrom(conn, device);
}

/** CD also accepts a DVD drive, as Ironic does. */
function deviceAccepts(device: VirtualMediaDevice, mediaType: string): boolean {
  return device.mediaTypes.includes(mediaType) || (mediaType === 'CD' && device.mediaTypes.includes('DVD'));
}

/**
 * Inserts the image into the first free device of that media type (Ironic's choice). A device that
 * already holds this very image counts as done. Returns the device path used.
 */
export async function insertVirtualMedia(conn: RedfishConnection, systemPath: string, mediaType: string, image: string, opts: InsertMediaOptions = {}): Promise<string> {
  const candidates = (await listVirtualMedia(conn, systemPath)).filter((d) => deviceAccepts(d, mediaType));
  if (candidates.length === 0) throw new RedfishUnsupportedError(`No virtual media device of type ${mediaType} for ${systemPath}`);
  const already = candidates.find((d) => d.inserted && d.image === image);
  if (already) return already.path;
  const free = candidates.find((d) => !d.inserted);
  if (!free) throw new RedfishUnsupportedError(`Every ${mediaType} virtual media device of ${systemPath} is in use`);
  await insertInto(conn, free, image, opts);
  return free.path;
}

/** Ejects whatever is inserted in devices of that media type (all types when omitted). Returns the ejected paths. */
export async function ejectVirtualMedia(conn: RedfishConnection, systemPath: string, mediaType?: string): Promise<string[]> {
  const devices = (await listVirtualMedia(conn, systemPath)).filter((d) => d.inserted && (!mediaType || deviceAccepts(d, mediaType)));
  for (const d of devices) await ejectFrom(conn, d);
  return devices.map((d) => d.path);
}

async function insertInto(conn: RedfishConnection, device: VirtualMediaDevice, image: string, opts: InsertMediaOptions): Promise<void> {
  const body: RedfishObject = { Image: image };
  if (opts.userName !== undefined) body.UserName = opts.userName;
  if (opts.password !== undefined) body.Password = opts.password;
  if (opts.transferMethod !== undefined) body.TransferMethod = opts.transferMethod;
  const writeProtected = opts.writeProtected ?? true;
  const target = actionTarget(device.raw, '#VirtualMedia.InsertMedia');
  if (!target) {
    await conn.patch(device.path, { ...body, Inserted: true, WriteProtected: writeProtected }, await conn.etagOf(device.path));
    return;
  }
  // Defaults (inserted, write-protected) are left out of the action, as sushy does: some firmware rejects them.
  if (!writeProtected) body.WriteProtected = false;
  try {
    await conn.request('POST', target, body);
  } catch (err) {
    // Some firmware insists on TransferProtocolType and says so in RelatedProperties.
    if (!(err instanceof RedfishBadRequestError) || !wantsTransferProtocol(err)) throw err;
    await conn.request('POST', target, { ...body, TransferProtocolType: protocolOf(image) });
  }
}

async function ejectFrom(conn: RedfishConnection, device: VirtualMediaDevice): Promise<void> {
  const target = actionTarget(device.raw, '#VirtualMedia.EjectMedia');
  if (!target) {
    await conn.patch(device.path, { Image: null, Inserted: false }, await conn.etagOf(device.path));
    return;
  }
  try {
    await conn.request('POST', target, {});
  } catch (err) {
    // Firmware differs on whether a parameterless action takes "{}" or no body at all.
    if (!(err instanceof RedfishHttpError) || (err.status !== 400 && err.status !== 415)) throw err;
    await conn.request('POST', target, null);
  }
}

function wantsTransferProtocol(err: RedfishBadRequestError): boolean {
  return err.messages.some((m) => m.relatedProperties.some((p) => p.endsWith('TransferProtocolType')));
}

function protocolOf(image: string): string {
  const scheme = image.split(':')[0].toUpperCase();
  return scheme === 'SMB' ? 'CIFS' : scheme;
}

function deviceOf(path: string, json: RedfishObject): VirtualMediaDevice {
  return {
    path,
    id: stringField(json, 'Id'),
    mediaTypes: stringList(json.MediaTypes),
    image: stringField(json, 'Image'),
    inserted: boolField(json, 'Inserted') ?? false,
    writeProtected: boolField(json, 'WriteProtected'),
    raw: json,
  };
}
