// The state of one emulated computer system and its power/boot model.
// Tests read and poke these fields directly ("behind the client's back").

import { randomUUID } from 'node:crypto';
import { BiosAttributes, BiosState } from './bios-state';
import { EmulatorHttpError, badValue } from './messages';
import { VirtualMediaSlot, defaultVirtualMedia } from './virtual-media-state';

export type PowerState = 'On' | 'Off';

export const RESET_TYPES = [
  'On', 'ForceOn', 'ForceOff', 'GracefulShutdown', 'GracefulRestart', 'ForceRestart', 'Nmi', 'PushPowerButton', 'PowerCycle',
] as const;
type ResetType = (typeof RESET_TYPES)[number];

const DEFAULT_BOOT_TARGETS = [
  'None', 'Pxe', 'Floppy', 'Cd', 'Usb', 'Hdd', 'BiosSetup', 'Utilities', 'Diags', 'UefiShell', 'UefiTarget', 'UefiHttp', 'UsbCd',
] as const;
const BOOT_ENABLED_VALUES = ['Disabled', 'Once', 'Continuous'] as const;
export const BOOT_MODES = ['UEFI', 'Legacy'] as const;
const LED_STATES = ['Lit', 'Blinking', 'Off'] as const;

export interface SystemSpec {
  id: string;
  name?: string;
  uuid?: string;
  manufacturer?: string;
  powerState?: PowerState;
  bootMode?: 'UEFI' | 'Legacy';
  allowableBootTargets?: string[];
  biosAttributes?: BiosAttributes;
  macAddresses?: string[];
  diskSizesGiB?: number[];
  /**
   * Keep BootSourceOverrideMode in a pending settings object (/Systems/{id}/Settings) applied at the
   * next power-on, as some BMCs do; target and frequency stay directly writable.
   */
  bootModeViaSettings?: boolean;
}

interface BootOverride {
  target: string;
  enabled: string;
  mode: string;
}

export class EmulatedSystem {
  readonly id: string;
  name: string;
  uuid: string;
  manufacturer: string;
  model = 'Emulated Redfish System';
  serialNumber: string;
  powerState: PowerState;
  boot: BootOverride;
  allowableBootTargets: string[];
  secureBootEnable = false;
  secureBootCurrentBoot: 'Enabled' | 'Disabled' = 'Disabled';
  indicatorLed: string = 'Off';
  readonly bios: BiosState;
  biosVersion = '1.0.0';
  bmcFirmwareVersion = '2.0.0';
  readonly virtualMedia: Map<string, VirtualMediaSlot> = defaultVirtualMedia();
  readonly macAddresses: string[];
  readonly diskSizesGiB: number[];
  readonly bootModeViaSettings: boolean;
  /** Boot mode staged in the settings object, applied at the next power-on. */
  pendingBootMode: string | null = null;
  /** Every reset request accepted, in order; lets tests see what the client asked for. */
  readonly resetHistory: ResetType[] = [];
  /** Boot sources actually used at each power-on (override target or the default disk). */
  readonly bootHistory: string[] = [];
  nmiCount = 0;
  gracefulShutdownDelayMs: number;
  private pendingTimer: NodeJS.Timeout | null = null;

  constructor(spec: SystemSpec, gracefulShutdownDelayMs: number, index: number) {
    this.id = spec.id;
    this.name = spec.name ?? `System ${spec.id}`;
    this.uuid = spec.uuid ?? randomUUID();
    this.manufacturer = spec.manufacturer ?? 'ironic-ts';
    this.serialNumber = `EMU${String(index).padStart(6, '0')}`;
    this.powerState = spec.powerState ?? 'Off';
    this.boot = { target: 'None', enabled: 'Disabled', mode: spec.bootMode ?? 'UEFI' };
    this.allowableBootTargets = spec.allowableBootTargets ?? [...DEFAULT_BOOT_TARGETS];
    this.bios = new BiosState(spec.biosAttributes);
    this.macAddresses = spec.macAddresses ?? [macFor(index)];
    this.diskSizesGiB = spec.diskSizesGiB ?? [100];
    this.bootModeViaSettings = spec.bootModeViaSettings ?? false;
    this.gracefulShutdownDelayMs = gracefulShutdownDelayMs;
  }

  reset(type: unknown): void {
    if (typeof type !== 'string' || !(RESET_TYPES as readonly string[]).includes(type)) {
      throw badValue('ResetType', type, RESET_TYPES);
    }
    const resetType = type as ResetType;
    this.resetHistory.push(resetType);
    this.cancelPending();
    switch (resetType) {
      case 'On':
      case 'ForceOn':
        if (this.powerState === 'Off') this.powerOn();
        return;
      case 'ForceOff':
        this.powerState = 'Off';
        return;
      case 'GracefulShutdown':
        if (this.powerState === 'On') this.later(() => { this.powerState = 'Off'; });
        return;
      case 'GracefulRestart':
        this.requireOn(resetType);
        this.later(() => this.powerOn());
        return;
      case 'ForceRestart':
      case 'PowerCycle':
        this.powerOn();
        return;
      case 'Nmi':
        this.requireOn(resetType);
        this.nmiCount += 1;
        return;
      case 'PushPowerButton':
        if (this.powerState === 'On') this.powerState = 'Off';
        else this.powerOn();
        return;
    }
  }

  /** Whether a delayed (graceful) power transition is still in flight. */
  get transitionPending(): boolean {
    return this.pendingTimer !== null;
  }

  /** PATCH of the pending settings object: only the boot mode lives there. */
  stageBootMode(mode: string | undefined): void {
    if (mode === undefined) return;
    if (!(BOOT_MODES as readonly string[]).includes(mode)) throw badValue('Boot/BootSourceOverrideMode', mode, BOOT_MODES);
    this.pendingBootMode = mode;
  }

  setBoot(patch: Partial<BootOverride>): void {
    if (patch.mode !== undefined && this.bootModeViaSettings) {
      throw new EmulatorHttpError(400, 'PropertyNotWritable', 'BootSourceOverrideMode is changed through the settings object.', ['Boot/BootSourceOverrideMode']);
    }
    if (patch.target !== undefined && !this.allowableBootTargets.includes(patch.target)) {
      throw badValue('Boot/BootSourceOverrideTarget', patch.target, this.allowableBootTargets);
    }
    if (patch.enabled !== undefined && !(BOOT_ENABLED_VALUES as readonly string[]).includes(patch.enabled)) {
      throw badValue('Boot/BootSourceOverrideEnabled', patch.enabled, BOOT_ENABLED_VALUES);
    }
    if (patch.mode !== undefined && !(BOOT_MODES as readonly string[]).includes(patch.mode)) {
      throw badValue('Boot/BootSourceOverrideMode', patch.mode, BOOT_MODES);
    }
    this.boot = {
      target: patch.target ?? this.boot.target,
      enabled: patch.enabled ?? this.boot.enabled,
      mode: patch.mode ?? this.boot.mode,
    };
  }

  setSecureBoot(enabled: unknown): void {
    if (typeof enabled !== 'boolean') throw badValue('SecureBootEnable', enabled);
    if (enabled && this.boot.mode !== 'UEFI') {
      throw new EmulatorHttpError(409, 'ActionNotSupported', 'Secure boot can be enabled only in UEFI boot mode.', ['SecureBootEnable']);
    }
    this.secureBootEnable = enabled;
  }

  setIndicatorLed(state: unknown): void {
    if (typeof state !== 'string' || !(LED_STATES as readonly string[]).includes(state)) {
      throw badValue('IndicatorLED', state, LED_STATES);
    }
    this.indicatorLed = state;
  }

  stop(): void {
    this.cancelPending();
  }

  /** A power-on (or warm reset): what firmware does at boot time. */
  private powerOn(): void {
    this.powerState = 'On';
    this.bios.applyPending(new Date());
    if (this.pendingBootMode !== null) this.boot = { ...this.boot, mode: this.pendingBootMode };
    this.pendingBootMode = null;
    this.secureBootCurrentBoot = this.secureBootEnable ? 'Enabled' : 'Disabled';
    const overridden = this.boot.enabled !== 'Disabled' && this.boot.target !== 'None';
    this.bootHistory.push(overridden ? this.boot.target : 'Hdd');
    // A one-time override is consumed by the boot that used it, as real BMCs do.
    if (this.boot.enabled === 'Once') this.boot = { ...this.boot, enabled: 'Disabled' };
  }

  private requireOn(action: string): void {
    if (this.powerState !== 'On') {
      throw new EmulatorHttpError(409, 'ActionNotSupported', `The action ${action} is not supported while the system is powered off.`);
    }
  }

  private later(fn: () => void): void {
    if (this.gracefulShutdownDelayMs <= 0) {
      fn();
      return;
    }
    this.pendingTimer = setTimeout(() => {
      this.pendingTimer = null;
      fn();
    }, this.gracefulShutdownDelayMs);
  }

  private cancelPending(): void {
    if (this.pendingTimer) clearTimeout(this.pendingTimer);
    this.pendingTimer = null;
  }
}

function macFor(index: number): string {
  const hex = (index + 1).toString(16).padStart(6, '0');
  return `52:54:00:${hex.slice(0, 2)}:${hex.slice(2, 4)}:${hex.slice(4, 6)}`;
}
