/** A driver (hardware type) as Ironic shows it (driver.py convert_with_links). */
import type { ConductorHardwareInterfaceRecord } from '../../db/models';
import { V } from '../versions';
import { checkInvalidFields, links, sanitize } from './resource-dict';

/**
 * The interface types a driver lists. Upstream iterates a Python set here, so the order is
 * arbitrary per process; this is the order one reference run showed, firmware (1.86) last.
 */
const DRIVER_INTERFACE_TYPES = [
  'management', 'raid', 'bios', 'inspect', 'network', 'storage', 'power', 'vendor', 'console', 'rescue', 'deploy', 'boot',
  'firmware',
] as const;

const HIDDEN_BELOW: [string, number][] = [
  ['storage', V.STORAGE_INTERFACE],
  ['rescue', V.RESCUE_INTERFACE],
  ['bios', V.BIOS_INTERFACE],
  ['firmware', V.FIRMWARE_INTERFACE],
];

export function driverDict(base: string, name: string, hosts: string[], version: number, detail: boolean,
  interfaces: ConductorHardwareInterfaceRecord[]): Record<string, unknown> {
  const driver: Record<string, unknown> = { name, hosts, links: links(base, 'drivers', name) };
  if (version >= V.LINKS_NODE_STATES_DRIVER_PROPS) driver.properties = links(base, 'drivers', `${name}/properties`);
  if (version >= V.DYNAMIC_DRIVERS) {
    driver.type = 'dynamic';
    if (detail) addInterfaces(driver, interfaces.filter((i) => i.hardware_type === name));
  }
  for (const [iface, minor] of HIDDEN_BELOW) {
    if (version < minor) {
      delete driver[`default_${iface}_interface`];
      delete driver[`enabled_${iface}_interfaces`];
    }
  }
  return driver;
}

function addInterfaces(driver: Record<string, unknown>, interfaces: ConductorHardwareInterfaceRecord[]): void {
  for (const type of DRIVER_INTERFACE_TYPES) {
    let def: string | null = null;
    const enabled: string[] = [];
    for (const i of interfaces) {
      if (i.interface_type !== type) continue;
      if (!enabled.includes(i.interface_name)) enabled.push(i.interface_name);
      if (i.default) def = i.interface_name;
    }
    driver[`default_${type}_interface`] = def;
    driver[`enabled_${type}_interfaces`] = enabled;
  }
}

/** driver_sanitize: trims to fields, then (as upstream, after trimming) rejects unknown ones. */
export function sanitizeDriver(driver: Record<string, unknown>, fields: readonly string[] | null): Record<string, unknown> {
  if (fields === null) return driver;
  sanitize(driver, fields);
  checkInvalidFields(fields, Object.keys(driver));
  return driver;
}
