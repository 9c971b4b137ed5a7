/**
 * Driver composition (common/driver_factory.py): which hardware types and implementations are
 * enabled, a node's defaults, validation of its `*_interface` fields, and the composed driver.
 */
import { withIronicTimers } from './driver-metrics';
import type { Config } from '../conf/config';
import type { OptionName } from '../conf/registry';
import type { NodeRecord } from '../db/models';
import {
  DriverNotFound, IncompatibleInterface, InterfaceNotFoundInEntrypoint, NoDriversLoaded, NoValidDefaultForInterface,
} from '../common/errors';
import { log } from '../common/log';
import { pyRepr } from '../common/python/repr';
import { BaseInterface, ComposedDriver, INTERFACE_KINDS, InterfaceKind } from './base';
import type { HardwareType } from './hardware/types';
import { interfaceFactory, knownHardwareType, knownInterfaces } from './catalog';
import { RAID_LOGICAL_DISK_PROPERTIES } from './raid/logical-disk-properties';

/** Options that older catalogs lack (firmware arrived after 21.4): Ironic's own defaults. */
const FALLBACK_ENABLED: Partial<Record<InterfaceKind, string[]>> = { firmware: ['no-firmware'] };

interface HardwareTypeInterfaces {
  enabled: Record<InterfaceKind, string[]>;
  defaults: Record<InterfaceKind, string | null>;
}

interface HardwareInterfaceRow {
  hardware_type: string;
  interface_type: string;
  interface_name: string;
  default: boolean;
}

export class DriverFactory {
  private readonly instances = new Map<string, BaseInterface>();
  private readonly enabledByKind = new Map<InterfaceKind, string[]>();
  readonly hardwareTypeNames: string[];

  constructor(private readonly conf: Config) {
    this.hardwareTypeNames = dedupe(conf.list('DEFAULT', 'enabled_hardware_types'))
      .filter((name) => this.warnUnless(knownHardwareType(name) !== undefined, `hardware type ${name}`));
    for (const kind of INTERFACE_KINDS) this.enabledByKind.set(kind, this.computeEnabled(kind));
  }

  private warnUnless(ok: boolean, what: string): boolean {
    if (!ok) log.warning(`Enabled ${what} is not available in this build; ignoring it`);
    return ok;
  }

  private option(name: OptionName<'DEFAULT'>): string[] | string | null {
    try {
      return this.conf.raw('DEFAULT', name) as string[] | string | null;
    } catch {
      return null;
    }
  }

  /** enabled_<kind>_interfaces, or (power/management unset) each enabled hardware type's first choice. */
  private computeEnabled(kind: InterfaceKind): string[] {
    const configured = this.option(`enabled_${kind}_interfaces`);
    let names = Array.isArray(configured) ? dedupe(configured) : (FALLBACK_ENABLED[kind] ?? []);
    if (names.length === 0) {
      for (const hw of this.hardwareTypes()) {
        const first = hw.supported[kind][0];
        if (first && !names.includes(first)) names.push(first);
      }
    }
    names = names.filter((n) => this.warnUnless(interfaceFactory(kind, n) !== undefined, `${kind} interface ${n}`));
    return names;
  }

  enabledInterfaces(kind: InterfaceKind): string[] {
    return [...(this.enabledByKind.get(kind) ?? [])];
  }

  hardwareTypes(): HardwareType[] {
    return this.hardwareTypeNames.map((n) => knownHardwareType(n) as HardwareType);
  }

  /** The enabled hardware type, or DriverNotFound. */
  hardwareType(name: string | null): HardwareType {
    const hw = name !== null && this.hardwareTypeNames.includes(name) ? knownHardwareType(name) : undefined;
    if (!hw) throw new DriverNotFound({ driver_name: name });
    return hw;
  }

  /** An enabled implementation compatible with the hardware type (driver_factory.get_interface). */
  getInterface(hw: HardwareType, kind: InterfaceKind, name: string): BaseInterface {
    const enabled = this.enabledInterfaces(kind);
    if (!enabled.includes(name)) {
      throw new InterfaceNotFoundInEntrypoint({
        iface: name, entrypoint: `ironic.hardware.interfaces.${kind}`, valid: pyRepr(enabled),
      });
    }
    const impl = this.instance(kind, name);
    if (!hw.acceptsAnyInterface && !hw.supported[kind].includes(name)) {
      throw new IncompatibleInterface({ interface_type: kind, interface_impl: impl.className, hardware_type: hw.className });
    }
    return impl;
  }

  private instance(kind: InterfaceKind, name: string): BaseInterface {
    const key = `${kind}/${name}`;
    let impl = this.instances.get(key);
    if (!impl) {
      impl = withIronicTimers((interfaceFactory(kind, name) as () => BaseInterface)());
      this.instances.set(key, impl);
    }
    return impl;
  }

  /** The first supported-and-enabled implementation, or `default_<kind>_interface` (default_interface). */
  defaultInterface(hw: HardwareType, kind: InterfaceKind, nodeUuid?: string): string {
    const nodeInfo = nodeUuid ? ` node ${nodeUuid} with` : '';
    const noDefault = () => new NoValidDefaultForInterface({ interface_type: kind, driver: hw.name, node_info: nodeInfo });
    const configured = this.option(`default_${kind}_interface`);
    if (typeof configured === 'string' && configured !== '') {
      try {
        this.getInterface(hw, kind, configured);
      } catch (err) {
        if (err instanceof IncompatibleInterface) throw noDefault();
        throw err;
      }
      return configured;
    }
    const enabled = this.enabledInterfaces(kind);
    const found = hw.supported[kind].find((name) => enabled.includes(name));
    if (!found) throw noDefault();
    return found;
  }

  /**
   * Validates every `*_interface` field and fills unset ones with defaults, in place
   * (check_and_update_node_interfaces). Returns whether anything was filled in.
   */
  checkAndUpdateNodeInterfaces(node: NodeRecord): boolean {
    const hw = this.hardwareType(node.driver);
    let changed = false;
    for (const kind of INTERFACE_KINDS) {
      const field = `${kind}_interface` as const;
      const fromInstance = (node.instance_info ?? {})[field];
      let setDefault = true;
      if (typeof fromInstance === 'string') {
        this.getInterface(hw, kind, fromInstance);
        setDefault = false;
      }
      const current = node[field];
      if (current !== null && current !== undefined) {
        this.getInterface(hw, kind, current);
        setDefault = false;
      }
      if (setDefault) {
        node[field] = this.defaultInterface(hw, kind, node.uuid);
        changed = true;
      }
    }
    return changed;
  }

  /** The node's composed driver; instance_info overrides of interfaces win (node.get_interface). */
  buildDriver(node: NodeRecord): ComposedDriver {
    const hw = this.hardwareType(node.driver);
    this.checkAndUpdateNodeInterfaces(node);
    const parts: Record<string, BaseInterface | string> = { hardwareType: hw.name };
    for (const kind of INTERFACE_KINDS) {
      const field = `${kind}_interface` as const;
      const override = (node.instance_info ?? {})[field];
      const name = typeof override === 'string' ? override : (node[field] as string);
      parts[kind] = this.getInterface(hw, kind, name);
    }
    return parts as unknown as ComposedDriver;
  }

  /** Enabled ∩ supported per kind with the computed default (for /v1/drivers and conductor rows). */
  describeHardwareType(name: string): HardwareTypeInterfaces {
    const hw = this.hardwareType(name);
    const enabled = {} as Record<InterfaceKind, string[]>;
    const defaults = {} as Record<InterfaceKind, string | null>;
    for (const kind of INTERFACE_KINDS) {
      const on = this.enabledInterfaces(kind);
      enabled[kind] = hw.supported[kind].filter((n) => on.includes(n));
      try {
        defaults[kind] = this.defaultInterface(hw, kind);
      } catch {
        defaults[kind] = null;
      }
    }
    return { enabled, defaults };
  }

  /**
   * Rows for conductor_hardware_interfaces, one per enabled implementation. As Ironic's
   * _register_and_validate_hardware_interfaces, a hardware type with no valid default for some
   * interface raises NoValidDefaultForInterface, and no hardware type at all NoDriversLoaded:
   * such a conductor must not start.
   */
  conductorInterfaceRows(host: string): HardwareInterfaceRow[] {
    if (this.hardwareTypeNames.length === 0) throw new NoDriversLoaded({ conductor: host });
    const rows: HardwareInterfaceRow[] = [];
    for (const hw of this.hardwareTypes()) {
      const { enabled } = this.describeHardwareType(hw.name);
      for (const kind of INTERFACE_KINDS) {
        const byDefault = this.defaultInterface(hw, kind);
        for (const impl of enabled[kind]) {
          rows.push({ hardware_type: hw.name, interface_type: kind, interface_name: impl, default: impl === byDefault });
        }
      }
    }
    return rows;
  }

  /** `GET /v1/drivers/{name}/properties`: the default implementations' properties merged. */
  driverProperties(name: string): Record<string, string> {
    const hw = this.hardwareType(name);
    const out: Record<string, string> = {};
    for (const kind of INTERFACE_KINDS) {
      let impl: BaseInterface;
      try {
        impl = this.getInterface(hw, kind, this.defaultInterface(hw, kind));
      } catch (err) {
        if (err instanceof InterfaceNotFoundInEntrypoint || err instanceof NoValidDefaultForInterface) continue;
        throw err;
      }
      Object.assign(out, impl.properties());
    }
    return out;
  }

  /** `GET /v1/drivers/{name}/raid/logical_disk_properties` (the default RAID interface's schema). */
  raidLogicalDiskProperties(name: string): Record<string, string> {
    this.hardwareType(name);
    return { ...RAID_LOGICAL_DISK_PROPERTIES };
  }

  /** All implementations of `kind` this build ships, enabled or not. */
  static knownInterfaces(kind: InterfaceKind): string[] {
    return knownInterfaces(kind);
  }
}

function dedupe(names: readonly string[]): string[] {
  return [...new Set(names.filter((n) => n))];
}
