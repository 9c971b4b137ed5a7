/** snmp (drivers/snmp.py SNMPHardware): power through an SNMP-managed PDU outlet, no management. */
import type { HardwareType } from './types';
import { GENERIC_SUPPORTED as G } from './types';

export const SNMP_HARDWARE: HardwareType = {
  name: 'snmp',
  className: 'SNMPHardware',
  supported: {
    ...G,
    management: ['noop', 'fake'],
    power: ['snmp'],
  },
};
