/**
 * A hardware type as plain data: for each interface kind, the implementation names it supports,
 * most preferred first (Ironic's supported_*_interfaces). Names not registered yet are skipped,
 * so a new implementation is one file plus its name here.
 */
import type { InterfaceKind } from '../base';

export interface HardwareType {
  name: string;
  /** Class name Ironic prints in IncompatibleInterface messages. */
  className: string;
  supported: Readonly<Record<InterfaceKind, readonly string[]>>;
  /** fake-hardware takes any enabled implementation of any kind (driver_factory.get_interface). */
  acceptsAnyInterface?: boolean;
}

/** GenericHardware's defaults (drivers/generic.py), shared by the real hardware types. */
export const GENERIC_SUPPORTED = {
  bios: ['no-bios'],
  // http/http-ipxe (UEFI HTTP boot) last, so they never become a default by accident.
  boot: ['ipxe', 'pxe', 'http-ipxe', 'http'],
  console: ['no-console'],
  // iscsi (an ironic-ts return of the design's deploy) last: never a default unless alone.
  deploy: ['direct', 'ansible', 'ramdisk', 'anaconda', 'bootc', 'custom-agent', 'iscsi'],
  firmware: ['no-firmware'],
  // 2025.1's generic order: ironic-inspector, then Ironic's own in-band inspection.
  inspect: ['inspector', 'agent', 'no-inspect'],
  network: ['flat', 'neutron', 'noop'],
  raid: ['no-raid', 'agent'],
  rescue: ['no-rescue', 'agent'],
  storage: ['noop', 'cinder', 'external'],
  vendor: ['no-vendor'],
} as const;
