/** redfish (drivers/redfish.py RedfishHardware): a BMC speaking DMTF Redfish. */
import type { HardwareType } from './types';
import { GENERIC_SUPPORTED as G } from './types';

export const REDFISH_HARDWARE: HardwareType = {
  name: 'redfish',
  className: 'RedfishHardware',
  supported: {
    ...G,
    bios: ['redfish', 'no-bios'],
    // Virtual media goes last: few vendors support it well (Ironic's note).
    boot: ['ipxe', 'pxe', 'redfish-virtual-media', 'http-ipxe', 'http'],
    // ironic-ts extension: `fake` last, so redfish nodes can be enrolled while no agent deploy exists.
    deploy: [...G.deploy, 'fake'],
    firmware: ['redfish', 'no-firmware'],
    inspect: ['redfish', ...G.inspect],
    management: ['redfish', 'noop'],
    power: ['redfish'],
    raid: ['redfish', 'no-raid', 'agent'],
    vendor: ['redfish', 'no-vendor'],
  },
};
