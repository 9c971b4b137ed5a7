// Public surface of the Redfish BMC emulator.

export { startRedfishEmulator } from './server';
export type { RedfishEmulator, RedfishEmulatorOptions } from './server';
export type { PowerState } from './system-state';
