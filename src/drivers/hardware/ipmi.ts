/** ipmi (drivers/ipmi.py IPMIHardware): power and management through IPMI over LAN. */
import type { HardwareType } from './types';
import { GENERIC_SUPPORTED as G } from './types';

export const IPMI_HARDWARE: HardwareType = {
  name: 'ipmi',
  className: 'IPMIHardware',
  supported: {
    ...G,
    // ironic-ts extension: `fake` last, so ipmi nodes can be enrolled while no PXE boot / agent deploy exists.
    boot: [...G.boot, 'fake'],
    deploy: [...G.deploy, 'fake'],
    console: ['ipmitool-socat', 'ipmitool-shellinabox', 'no-console'],
    management: ['ipmitool', 'noop'],
    power: ['ipmitool'],
    vendor: ['ipmitool', 'no-vendor'],
  },
};
