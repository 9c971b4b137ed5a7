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
    boot: [...G.boot, 'redfish-virtual-media', 'redfish-https'],
    console: ['redfish-graphical', 'no-console'],
    firmware: ['redfish', 'no-firmware'],
    inspect: ['redfish', ...G.inspect],
    management: ['redfish', 'noop'],
    power: ['redfish'],
    raid: ['redfish', 'no-raid', 'agent'],
    vendor: ['redfish', 'no-vendor'],
  },
};
