/**
 * Redfish vendor passthru (drivers/modules/redfish/vendor.py): `eject_vmedia`. The event
 * subscription methods are not offered (the client has no EventService support).
 */
import { InvalidParameterValue, RedfishError } from '../../common/errors';
import type { VendorInterface } from '../base';
import { connectRedfish, redfishAction } from './common';
import { lookupTable } from '../../common/own-keys';

/** The boot_device words Ironic documents, as Redfish MediaTypes. */
const MEDIA_TYPES: Readonly<Record<string, string>> = lookupTable({ cd: 'CD', dvd: 'DVD', usb: 'USBStick', floppy: 'Floppy' });

function mediaTypeOf(bootDevice: unknown): string {
  const type = typeof bootDevice === 'string' ? MEDIA_TYPES[bootDevice.toLowerCase()] : undefined;
  if (!type) throw new InvalidParameterValue(`Boot device ${String(bootDevice)} is not a valid value `);
  return type;
}

export function createRedfishVendor(): VendorInterface {
  return {
    kind: 'vendor', name: 'redfish', className: 'RedfishVendorPassthru',
    properties: () => ({}),
    async validate() {},
    routes: {
      eject_vmedia: {
        httpMethods: ['POST'], async: true,
        description: 'Eject a virtual media device. If no device is provided then all attached devices will be ejected. ' +
          "Optional arguments: 'boot_device' - the boot device to eject, either 'cd', 'dvd', 'usb', or 'floppy'",
      },
    },
    async validateMethod(task, method, args) {
      if (method !== 'eject_vmedia' || !args.boot_device) return;
      const type = mediaTypeOf(args.boot_device);
      const { client } = await connectRedfish(task);
      const devices = await redfishAction(() => client.listVirtualMedia(), (error) => error);
      if (!devices.some((d) => d.mediaTypes.includes(type))) {
        throw new InvalidParameterValue(`Boot device ${String(args.boot_device)} is not a valid value `);
      }
    },
    async invoke(task, method, args) {
      if (method !== 'eject_vmedia') throw new RedfishError({ error: `Unknown vendor passthru method ${method}` });
      const type = args.boot_device ? mediaTypeOf(args.boot_device) : undefined;
      const { client } = await connectRedfish(task);
      await redfishAction(() => client.ejectVirtualMedia(type),
        (error) => `Ejecting virtual media from node ${task.node.uuid} failed. Error: ${error}`);
      return null;
    },
  };
}
