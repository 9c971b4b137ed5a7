/** Public value types shared by the native client and the ipmitool-binary client. */

export type PrivLevel = 'callback' | 'user' | 'operator' | 'administrator';
export type ProtocolVersion = '2.0' | '1.5';
export type PowerState = 'on' | 'off';
export type BootDevice = 'pxe' | 'disk' | 'cdrom' | 'bios' | 'safe';
export type PowerAction = 'on' | 'off' | 'cycle' | 'reset' | 'soft' | 'diag';

/** ipmi_bridging in Ironic terms: none, single (target only) or dual (transit then target). */
export interface BridgingOptions {
  type: 'single' | 'dual';
  targetChannel: number;
  targetAddress: number;
  transitChannel?: number;
  transitAddress?: number;
  /** Our IPMB address as requester of the bridged message (ipmitool -m); default 0x20. */
  localAddress?: number;
}

export interface IpmiClientOptions {
  address: string;
  port?: number;
  username?: string;
  password?: string;
  privLevel?: PrivLevel;
  /** RMCP+ cipher suite id (0, 1, 2, 3, 15, 16, 17); ignored for protocol 1.5. */
  cipherSuite?: number;
  protocolVersion?: ProtocolVersion;
  /** BMC key Kg as hex (with or without 0x); absent means Kg = the user password key. */
  kgKey?: string;
  bridging?: BridgingOptions;
  /** Wait per request attempt. */
  timeoutMs?: number;
  /** Extra attempts after the first one, per request. */
  retries?: number;
}

export interface BootDeviceInfo {
  /** null when the BMC reports a selector we do not map (e.g. "no override"). */
  device: BootDevice | null;
  persistent: boolean;
  efi: boolean;
}

export interface SetBootDeviceOptions {
  persistent?: boolean;
  efi?: boolean;
}

export interface DeviceId {
  deviceId: number;
  deviceRevision: number;
  firmwareMajor: number;
  firmwareMinor: number;
  ipmiVersion: string;
  manufacturerId: number;
  productId: number;
}

/** What the Ironic ipmitool interfaces consume; both implementations satisfy it. */
export interface IpmiPowerClient {
  getPowerState(): Promise<PowerState>;
  powerOn(): Promise<void>;
  powerOff(): Promise<void>;
  powerCycle(): Promise<void>;
  powerReset(): Promise<void>;
  softPowerOff(): Promise<void>;
  diagInterrupt(): Promise<void>;
  setBootDevice(device: BootDevice, options?: SetBootDeviceOptions): Promise<void>;
  getBootDevice(): Promise<BootDeviceInfo>;
  getDeviceId(): Promise<DeviceId>;
  /** Any command by number, e.g. vendor passthru; resolves the response data (completion code 0). */
  raw(netFn: number, cmd: number, data?: number[]): Promise<Buffer>;
  close(): Promise<void>;
}

export const PRIV_LEVEL_CODES: Readonly<Record<PrivLevel, number>> = {
  callback: 1,
  user: 2,
  operator: 3,
  administrator: 4,
};
