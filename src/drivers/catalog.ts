/**
 * Every interface implementation and hardware type this build ships, by entry-point name
 * (Ironic's setup.cfg entry points). Adding a driver = its file + one line here.
 */
import type { BaseInterface, InterfaceKind } from './base';
import type { HardwareType } from './hardware/types';
import { FAKE_HARDWARE } from './hardware/fake-hardware';
import { MANUAL_MANAGEMENT } from './hardware/manual-management';
import { IPMI_HARDWARE } from './hardware/ipmi';
import { REDFISH_HARDWARE } from './hardware/redfish';
import { SNMP_HARDWARE } from './hardware/snmp';
import { SSH_HARDWARE } from './hardware/ssh';
import { createFakeBios } from './bios/fake';
import { createNoBios } from './bios/no-bios';
import { createRedfishBios } from './redfish/bios';
import { createFakeBoot } from './boot/fake';
import { createRedfishVirtualMediaBoot } from './redfish/boot';
import { createPxeBoot } from './boot/pxe';
import { createIpxeBoot } from './boot/ipxe';
import { createHttpBoot } from './boot/http';
import { createHttpIpxeBoot } from './boot/http-ipxe';
import { createFakeConsole } from './console/fake';
import { createNoConsole } from './console/no-console';
import { createIpmitoolShellinaboxConsole, createIpmitoolSocatConsole } from './ipmi/console';
import { createFakeDeploy } from './deploy/fake';
import { createDirectDeploy } from './deploy/direct';
import { createRamdiskDeploy } from './deploy/ramdisk';
import { createIscsiDeploy } from './deploy/iscsi';
import { createFakeFirmware } from './firmware/fake';
import { createNoFirmware } from './firmware/no-firmware';
import { createRedfishFirmware } from './redfish/firmware';
import { createAgentInspect } from './inspect/agent';
import { createFakeInspect } from './inspect/fake';
import { createNoInspect } from './inspect/no-inspect';
import { createRedfishInspect } from './redfish/inspect';
import { createFakeManagement } from './management/fake';
import { createNoopManagement } from './management/noop';
import { createIpmitoolManagement } from './ipmi/management';
import { createRedfishManagement } from './redfish/management';
import { createFlatNetwork } from './network/flat';
import { createNeutronNetwork } from './network/neutron';
import { createNoopNetwork } from './network/noop';
import { createFakePower } from './power/fake';
import { createIpmitoolPower } from './ipmi/power';
import { createRedfishPower } from './redfish/power';
import { createSnmpPower } from './snmp/power';
import { createSshPower } from './ssh/power';
import { createSshManagement } from './ssh/management';
import { createFakeRaid } from './raid/fake';
import { createNoRaid } from './raid/no-raid';
import { createAgentRescue } from './rescue/agent';
import { createFakeRescue } from './rescue/fake';
import { createNoRescue } from './rescue/no-rescue';
import { createFakeStorage } from './storage/fake';
import { createNoopStorage } from './storage/noop';
import { createCinderStorage } from './storage/cinder';
import { createExternalStorage } from './storage/external';
import { createFakeVendor } from './vendor/fake';
import { createNoVendor } from './vendor/no-vendor';
import { createRedfishVendor } from './redfish/vendor';
import { createIpmitoolVendor } from './ipmi/vendor';

type InterfaceFactory = () => BaseInterface;

const implementations: Record<InterfaceKind, Map<string, InterfaceFactory>> = {
  bios: new Map([['fake', createFakeBios], ['no-bios', createNoBios], ['redfish', createRedfishBios]]),
  boot: new Map([['fake', createFakeBoot], ['redfish-virtual-media', createRedfishVirtualMediaBoot],
    ['pxe', createPxeBoot], ['ipxe', createIpxeBoot], ['http', createHttpBoot], ['http-ipxe', createHttpIpxeBoot]]),
  console: new Map([['fake', createFakeConsole], ['no-console', createNoConsole], ['ipmitool-socat', createIpmitoolSocatConsole],
    ['ipmitool-shellinabox', createIpmitoolShellinaboxConsole]]),
  deploy: new Map([['fake', createFakeDeploy], ['direct', createDirectDeploy], ['ramdisk', createRamdiskDeploy], ['iscsi', createIscsiDeploy]]),
  firmware: new Map([['fake', createFakeFirmware], ['no-firmware', createNoFirmware], ['redfish', createRedfishFirmware]]),
  inspect: new Map([
    ['agent', createAgentInspect], ['fake', createFakeInspect], ['no-inspect', createNoInspect], ['redfish', createRedfishInspect],
  ]),
  management: new Map([['fake', createFakeManagement], ['noop', createNoopManagement], ['redfish', createRedfishManagement], ['ipmitool', createIpmitoolManagement],
    ['ssh', createSshManagement]]),
  network: new Map([['flat', createFlatNetwork], ['neutron', createNeutronNetwork], ['noop', createNoopNetwork]]),
  power: new Map([['fake', createFakePower], ['redfish', createRedfishPower], ['ipmitool', createIpmitoolPower], ['snmp', createSnmpPower], ['ssh', createSshPower]]),
  raid: new Map([['fake', createFakeRaid], ['no-raid', createNoRaid]]),
  rescue: new Map([['fake', createFakeRescue], ['no-rescue', createNoRescue], ['agent', createAgentRescue]]),
  storage: new Map([['fake', createFakeStorage], ['noop', createNoopStorage], ['cinder', createCinderStorage],
    ['external', createExternalStorage]]),
  vendor: new Map([['fake', createFakeVendor], ['no-vendor', createNoVendor], ['ipmitool', createIpmitoolVendor], ['redfish', createRedfishVendor]]),
};

const hardwareTypes = new Map<string, HardwareType>([
  [FAKE_HARDWARE.name, FAKE_HARDWARE],
  [MANUAL_MANAGEMENT.name, MANUAL_MANAGEMENT],
  [REDFISH_HARDWARE.name, REDFISH_HARDWARE],
  [IPMI_HARDWARE.name, IPMI_HARDWARE],
  [SNMP_HARDWARE.name, SNMP_HARDWARE],
  [SSH_HARDWARE.name, SSH_HARDWARE],
]);

/** For drivers living elsewhere (and tests): makes an implementation loadable by name. */
export function registerInterface(kind: InterfaceKind, name: string, factory: InterfaceFactory): void {
  implementations[kind].set(name, factory);
}

export function interfaceFactory(kind: InterfaceKind, name: string): InterfaceFactory | undefined {
  return implementations[kind].get(name);
}

export function knownInterfaces(kind: InterfaceKind): string[] {
  return [...implementations[kind].keys()];
}

export function knownHardwareType(name: string): HardwareType | undefined {
  return hardwareTypes.get(name);
}
