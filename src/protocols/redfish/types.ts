// Plain data the Redfish client returns and accepts.

import { RedfishObject } from './json';

export const RESET_TYPES = [
  'On', 'ForceOn', 'ForceOff', 'GracefulShutdown', 'GracefulRestart', 'ForceRestart', 'Nmi', 'PushPowerButton', 'PowerCycle',
] as const;
export type ResetType = (typeof RESET_TYPES)[number];

export const BOOT_OVERRIDE_ENABLED = ['Disabled', 'Once', 'Continuous'] as const;
export type BootOverrideEnabled = (typeof BOOT_OVERRIDE_ENABLED)[number];

export const BOOT_MODES = ['UEFI', 'Legacy'] as const;
export type BootMode = (typeof BOOT_MODES)[number];

export interface BootInfo {
  target: string | null;
  enabled: string | null;
  mode: string | null;
  /** BootSourceOverrideTarget@Redfish.AllowableValues; empty when the BMC does not say. */
  allowableTargets: string[];
  allowableModes: string[];
}

export interface SystemInfo {
  path: string;
  id: string | null;
  name: string | null;
  uuid: string | null;
  manufacturer: string | null;
  model: string | null;
  serialNumber: string | null;
  powerState: string | null;
  indicatorLed: string | null;
  biosVersion: string | null;
  boot: BootInfo;
  /** ResetType@Redfish.AllowableValues; empty when the BMC does not say. */
  allowedResetTypes: string[];
  managerPaths: string[];
  chassisPaths: string[];
  raw: RedfishObject;
}

export interface BootOverrideRequest {
  target?: string;
  enabled?: BootOverrideEnabled;
  mode?: BootMode;
}

export interface SecureBootInfo {
  path: string;
  enabled: boolean | null;
  currentBoot: string | null;
  mode: string | null;
}

export interface VirtualMediaDevice {
  path: string;
  id: string | null;
  mediaTypes: string[];
  image: string | null;
  inserted: boolean;
  writeProtected: boolean | null;
  raw: RedfishObject;
}

export interface InsertMediaOptions {
  writeProtected?: boolean;
  userName?: string;
  password?: string;
  transferMethod?: 'Stream' | 'Upload';
}

export type BiosValue = string | number | boolean | null;

export interface BiosInfo {
  path: string;
  attributes: Record<string, BiosValue>;
  /** Staged values waiting for the next reset; null when the BMC has no settings resource. */
  pendingAttributes: Record<string, BiosValue> | null;
  settingsPath: string | null;
  supportedApplyTimes: string[];
}

export interface FirmwareComponent {
  path: string;
  id: string | null;
  name: string | null;
  version: string | null;
  updateable: boolean | null;
  softwareId: string | null;
}

export interface SimpleUpdateRequest {
  imageUri: string;
  /** @odata.id paths of the components/resources to update; omitted lets the BMC decide. */
  targets?: string[];
  /** Defaults to the image URI's scheme (HTTP/HTTPS/...). */
  transferProtocol?: string;
}

export interface AsyncOperation {
  /** Task monitor to poll; null when the BMC completed the operation synchronously. */
  monitorUri: string | null;
}
