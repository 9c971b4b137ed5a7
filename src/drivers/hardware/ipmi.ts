/** ipmi (drivers/ipmi.py IPMIHardware): power and management through IPMI over LAN. */
import type { HardwareType } from './types';
import { GENERIC_SUPPORTED as G } from './types';

export const IPMI_HARDWARE: HardwareType = {
  name: 'ipmi',
  className: 'IPMIHardware',
  supported: {
    ...G,
    console: ['ipmitool-socat', 'ipmitool-shellinabox', 'no-console'],
    management: ['ipmitool', 'noop'],
    power: ['ipmitool'],
    vendor: ['ipmitool', 'no-vendor'],
  },
};
