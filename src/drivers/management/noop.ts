/** No-op management for hardware without a BMC (drivers/modules/noop_mgmt.py). */
import { InvalidParameterValue, UnsupportedDriverExtension } from '../../common/errors';
import type { DriverTask, ManagementInterface } from '../base';

/** Devices the preconfigured boot order is assumed to reach (PXE first, then the disk). */
const SUPPORTED_BOOT_DEVICES = ['pxe', 'disk'];

function notSupported(task: DriverTask, what: string): never {
  throw new UnsupportedDriverExtension({ driver: task.node.driver, extension: what });
}

export function createNoopManagement(): ManagementInterface {
  return {
    kind: 'management', name: 'noop', className: 'NoopManagement',
    properties: () => ({}),
    async validate() {},
    async getSupportedBootDevices() {
      return [...SUPPORTED_BOOT_DEVICES];
    },
    // Nothing to switch: the boot order is assumed to be set already; other devices are refused.
    async setBootDevice(_task, device) {
      if (!SUPPORTED_BOOT_DEVICES.includes(device)) {
        throw new InvalidParameterValue(`Invalid boot device ${device} specified, supported are ${SUPPORTED_BOOT_DEVICES.join(', ')}.`);
      }
    },
    // What the assumed boot order gives.
    async getBootDevice() {
      return { boot_device: 'pxe', persistent: true };
    },
    async injectNmi(task) {
      notSupported(task, 'inject_nmi');
    },
    async getSupportedBootModes() {
      return [];
    },
    async getBootMode() {
      return null;
    },
    async setBootMode(task) {
      notSupported(task, 'set_boot_mode');
    },
    async getSecureBootState() {
      return null;
    },
    async setSecureBootState(task) {
      notSupported(task, 'set_secure_boot_state');
    },
  };
}
