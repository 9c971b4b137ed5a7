/** Chassis and App command encoders/decoders (IPMI 2.0 sections 20 and 28). */
import { IpmiProtocolError } from './errors';
import type { IpmiRequest } from './message';
import type { BootDevice, BootDeviceInfo, DeviceId, PowerAction, PowerState } from './types';

export const NETFN_CHASSIS = 0x00;
export const NETFN_APP = 0x06;

const CONTROL_CODES: Readonly<Record<PowerAction, number>> = { off: 0, on: 1, cycle: 2, reset: 3, diag: 4, soft: 5 };

/** Boot device selector values (Boot Flags parameter, data 2 bits 5:2). */
const BOOT_SELECTORS: Readonly<Record<BootDevice, number>> = { pxe: 0x1, disk: 0x2, safe: 0x3, cdrom: 0x5, bios: 0x6 };

export function getChassisStatus(): IpmiRequest {
  return { netFn: NETFN_CHASSIS, cmd: 0x01, data: Buffer.alloc(0) };
}

export function parsePowerState(data: Buffer): PowerState {
  if (data.length < 1) throw new IpmiProtocolError('Get Chassis Status response has no data');
  return (data[0] & 0x01) === 1 ? 'on' : 'off';
}

export function chassisControl(action: PowerAction): IpmiRequest {
  return { netFn: NETFN_CHASSIS, cmd: 0x02, data: Buffer.from([CONTROL_CODES[action]]) };
}

export function setBootParam(param: number, data: number[]): IpmiRequest {
  return { netFn: NETFN_CHASSIS, cmd: 0x08, data: Buffer.from([param & 0x7f, ...data]) };
}

/** Boot Flags (parameter 5) with the valid bit, persistence and the EFI boot type. */
export function bootFlagsRequest(device: BootDevice, persistent: boolean, efi: boolean): IpmiRequest {
  const byte1 = 0x80 | (persistent ? 0x40 : 0) | (efi ? 0x20 : 0);
  return setBootParam(5, [byte1, BOOT_SELECTORS[device] << 2, 0, 0, 0]);
}

export function getBootFlagsRequest(): IpmiRequest {
  return { netFn: NETFN_CHASSIS, cmd: 0x09, data: Buffer.from([5, 0, 0]) };
}

export function parseBootFlags(data: Buffer): BootDeviceInfo {
  // data: parameter version, parameter valid/number, then the 5 boot flag bytes
  if (data.length < 4) throw new IpmiProtocolError('Get System Boot Options response truncated');
  if ((data[1] & 0x7f) !== 5) throw new IpmiProtocolError(`Get System Boot Options answered parameter ${data[1] & 0x7f}`);
  const flags = data[2];
  const selector = (data[3] >> 2) & 0x0f;
  const device = (Object.keys(BOOT_SELECTORS) as BootDevice[]).find((d) => BOOT_SELECTORS[d] === selector) ?? null;
  return { device, persistent: (flags & 0x40) !== 0, efi: (flags & 0x20) !== 0 };
}

export function getDeviceIdRequest(): IpmiRequest {
  return { netFn: NETFN_APP, cmd: 0x01, data: Buffer.alloc(0) };
}

export function parseDeviceId(data: Buffer): DeviceId {
  if (data.length < 11) throw new IpmiProtocolError('Get Device ID response truncated');
  return {
    deviceId: data[0],
    deviceRevision: data[1] & 0x0f,
    firmwareMajor: data[2] & 0x7f,
    firmwareMinor: (data[3] >> 4) * 10 + (data[3] & 0x0f), // BCD
    ipmiVersion: `${data[4] & 0x0f}.${data[4] >> 4}`,
    manufacturerId: data[6] | (data[7] << 8) | ((data[8] & 0x0f) << 16),
    productId: data.readUInt16LE(9),
  };
}
