/** Boot devices (ironic/common/boot_devices.py) the API, the conductor and the drivers share. */

/** VMEDIA_DEVICES: what a virtual media image can be attached as, in Ironic's order (its messages list them so). */
export const VMEDIA_DEVICES = ['disk', 'cdrom', 'floppy'] as const;
export type VmediaDevice = typeof VMEDIA_DEVICES[number];

export function isVmediaDevice(value: unknown): value is VmediaDevice {
  return (VMEDIA_DEVICES as readonly unknown[]).includes(value);
}

/** One virtual media device as get_virtual_media reports it (its Redfish MediaTypes, inserted, image). */
export interface VirtualMediaInfo {
  media_types: string[];
  inserted: boolean | null;
  image: string | null;
}
