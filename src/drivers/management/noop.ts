/** No-op management for hardware without a BMC (drivers/modules/noop_mgmt.py). */
import { UnsupportedDriverExtension } from '../../common/errors';
import type { DriverTask, ManagementInterface } from '../base';

function notSupported(task: DriverTask, what: string): never {
  throw new UnsupportedDriverExtension({ driver: task.node.driver, extension: what });
}

export function createNoopManagement(): ManagementInterface {
  return {
    kind: 'management', name: 'noop', className: 'NoopManagement',
    properties: () => ({}),
    async validate() {},
    async getSupportedBootDevices() {
      return ['pxe', 'disk'];
    },
    async setBootDevice() {},
    async getBootDevice() {
      return { boot_device: null, persistent: null };
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
