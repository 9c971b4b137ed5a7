// Public surface of the Redfish BMC emulator.

export { startRedfishEmulator } from './server';
export type { RedfishEmulator, RedfishEmulatorOptions, EmulatorSettings, RequestLogEntry } from './server';
export { EmulatedSystem } from './system-state';
export type { SystemSpec, PowerState, ResetType, BootOverride } from './system-state';
export type { EmulatorAuthOptions } from './sessions';
export { VirtualMediaSlot } from './virtual-media-state';
export { BiosState } from './bios-state';
