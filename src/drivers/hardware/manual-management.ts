/** manual-management (drivers/generic.py ManualManagementHardware): no BMC, power by agent. */
import type { HardwareType } from './types';
import { GENERIC_SUPPORTED as G } from './types';

export const MANUAL_MANAGEMENT: HardwareType = {
  name: 'manual-management',
  className: 'ManualManagementHardware',
  supported: {
    ...G,
    management: ['noop', 'fake'],
    power: ['agent', 'fake'],
    vendor: ['no-vendor'],
  },
};
