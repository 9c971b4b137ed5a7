/**
 * RedfishManagement's virtual media (management.py get_ / attach_ / detach_virtual_media over
 * boot.py's _get_vmedia, _insert_vmedia and _eject_vmedia): a system's own VirtualMedia collection
 * is used when it has one, else its managers'. A CD request may use a DVD-only device.
 */
import type { VirtualMediaInfo, VmediaDevice } from '../../common/boot-devices';
import { InvalidParameterValue } from '../../common/errors';
import { log } from '../../common/log';
import * as redfish from '../../protocols/redfish';
import type { DriverTask, ManagementInterface } from '../base';
import { connectRedfish, describeRedfishFailure, redfishAction } from './common';

/** VMEDIA_DEVICES_MAP_REV: Ironic's device names as Redfish MediaTypes. */
const MEDIA_TYPE: Readonly<Record<VmediaDevice, string>> = { cdrom: 'CD', floppy: 'Floppy', disk: 'USBStick' };
const NO_DEVICE = 'No suitable virtual media device found';

function accepts(device: redfish.VirtualMediaDevice, mediaType: string): boolean {
  return device.mediaTypes.includes(mediaType) || (mediaType === 'CD' && device.mediaTypes.includes('DVD'));
}

function infoOf(device: redfish.VirtualMediaDevice): VirtualMediaInfo {
  const inserted = device.raw.Inserted;
  return { media_types: device.mediaTypes, inserted: typeof inserted === 'boolean' ? inserted : null, image: device.image };
}

/** _get_vmedia: the system's devices, else the first manager that has any. */
function listed(groups: redfish.VirtualMediaGroups): VirtualMediaInfo[] {
  if (groups.system !== null) {
    if (groups.system.length > 0) return groups.system.map(infoOf);
  } else {
    const found = groups.managers.find((m) => m !== null && m.length > 0);
    if (found) return found.map(infoOf);
  }
  throw new InvalidParameterValue(NO_DEVICE);
}

/** _insert_vmedia_in_resource over the devices of one resource: true once the image is in one. */
async function insertIn(task: DriverTask, client: redfish.RedfishClient, devices: redfish.VirtualMediaDevice[],
  mediaType: string, image: string, errors: string[]): Promise<boolean> {
  for (const device of devices.filter((d) => accepts(d, mediaType))) {
    if (device.inserted) {
      if (device.image === image) return true;
      continue;
    }
    try {
      await client.insertMediaInto(device, image);
    } catch (err) {
      // Some devices (Cisco's vKVM ones) refuse any image: the next device may take it.
      if (!(err instanceof redfish.RedfishBadRequestError)) throw err;
      const message = `Inserting virtual media into ${mediaType} failed for node ${task.node.uuid}, moving to next ` +
        `virtual media device, if available. ${describeRedfishFailure(err)}`;
      errors.push(message);
      log.warning(message);
      continue;
    }
    log.info(`Inserted boot media ${image} into ${mediaType} for node ${task.node.uuid}`);
    return true;
  }
  return false;
}

async function insert(task: DriverTask, device: VmediaDevice, image: string): Promise<void> {
  const { client } = await connectRedfish(task);
  const mediaType = MEDIA_TYPE[device];
  const errors: string[] = [];
  const groups = await client.virtualMediaGroups();
  const resources = groups.system !== null ? [groups.system] : groups.managers.filter((m) => m !== null);
  for (const devices of resources) {
    if (await insertIn(task, client, devices, mediaType, image, errors)) return;
  }
  throw new InvalidParameterValue(errors.length > 0
    ? `All virtual media mount attempts failed. Most recent error: ${errors[errors.length - 1]}` : NO_DEVICE);
}

/** _eject_vmedia: every inserted device of the type (all types when null), the system's and the managers'. */
async function eject(task: DriverTask, device: VmediaDevice | null): Promise<void> {
  const { client } = await connectRedfish(task);
  const mediaType = device === null ? null : MEDIA_TYPE[device];
  const groups = await client.virtualMediaGroups();
  for (const devices of [groups.system, ...groups.managers]) {
    for (const d of devices ?? []) {
      if (mediaType !== null && !accepts(d, mediaType)) continue;
      if (d.inserted) await client.ejectMediaFrom(d);
      log.info(`Boot media is${d.inserted ? '' : ' already'} ejected from ${d.id ?? d.path} for node ${task.node.uuid}`);
    }
  }
}

const failed = (task: DriverTask, what: string) => (error: string) =>
  `Redfish ${what} virtual media failed for node ${task.node.uuid}. Error: ${error}`;

export const REDFISH_VMEDIA_METHODS: Pick<ManagementInterface,
  'getVirtualMedia' | 'attachVirtualMedia' | 'detachVirtualMedia'> = {
  async getVirtualMedia(task) {
    const { client } = await connectRedfish(task);
    return listed(await redfishAction(() => client.virtualMediaGroups(), failed(task, 'getting')));
  },
  async attachVirtualMedia(task, device, imageUrl) {
    await redfishAction(() => insert(task, device, imageUrl), failed(task, 'attaching'));
  },
  async detachVirtualMedia(task, devices) {
    if (devices === null) {
      await redfishAction(() => eject(task, null), failed(task, 'detaching'));
      return;
    }
    for (const device of devices) await redfishAction(() => eject(task, device), failed(task, 'detaching'));
  },
};
