// BIOS attributes of an emulated system: current values plus a pending Settings object
// that, as on real hardware, only takes effect on the next reset.

import { EmulatorHttpError, RedfishObject, isJsonObject } from './messages';

type BiosValue = string | number | boolean;
export type BiosAttributes = Record<string, BiosValue>;

const DEFAULT_BIOS_ATTRIBUTES: Readonly<BiosAttributes> = Object.freeze({
  BootMode: 'Uefi',
  ProcTurboMode: 'Enabled',
  LogicalProc: 'Enabled',
  SriovGlobalEnable: 'Disabled',
  EmbeddedSata: 'AhciMode',
  NumCores: 8,
  PxeDev1EnDis: 'Enabled',
  UefiHttpBoot: false,
});

export class BiosState {
  current: BiosAttributes;
  pending: BiosAttributes = {};
  /** ISO time of the last applied settings, exposed as @Redfish.Settings.Time. */
  lastApplied: string | null = null;
  private readonly defaults: BiosAttributes;

  constructor(initial?: BiosAttributes) {
    this.defaults = { ...DEFAULT_BIOS_ATTRIBUTES, ...(initial ?? {}) };
    this.current = { ...this.defaults };
  }

  /** Validates names and types against the current attributes, then stages them. */
  stage(body: RedfishObject): void {
    const attrs = body.Attributes;
    if (!isJsonObject(attrs)) {
      throw new EmulatorHttpError(400, 'PropertyMissing', 'The property Attributes is a required property.', ['Attributes']);
    }
    const staged: BiosAttributes = {};
    for (const [name, value] of Object.entries(attrs)) {
      if (!Object.hasOwn(this.current, name)) {
        throw new EmulatorHttpError(400, 'PropertyUnknown', `The property ${name} is not in the list of valid properties for the resource.`, [`Attributes/${name}`]);
      }
      if (typeof value !== typeof this.current[name]) {
        throw new EmulatorHttpError(400, 'PropertyValueTypeError', `The value ${JSON.stringify(value)} for the property ${name} is of a different type than the property can accept.`, [`Attributes/${name}`]);
      }
      staged[name] = value as BiosValue;
    }
    this.pending = { ...this.pending, ...staged };
  }

  stageDefaults(): void {
    this.pending = { ...this.defaults };
  }

  /** Called on every power-on/reset of the system. */
  applyPending(now: Date): void {
    if (Object.keys(this.pending).length === 0) return;
    this.current = { ...this.current, ...this.pending };
    this.pending = {};
    this.lastApplied = now.toISOString();
  }
}
