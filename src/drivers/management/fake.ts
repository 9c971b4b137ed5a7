/** Fake management: PXE is the only boot device (drivers/modules/fake.py FakeManagement). */
import { InvalidParameterValue } from '../../common/errors';
import type { DriverTask, ManagementInterface } from '../base';

export function createFakeManagement(): ManagementInterface {
  return {
    kind: 'management', name: 'fake', className: 'FakeManagement',
    properties: () => ({}),
    async validate() {},
    async getSupportedBootDevices() {
      return ['pxe'];
    },
    async setBootDevice(_task: DriverTask, device: string) {
      if (device !== 'pxe') throw new InvalidParameterValue(`Invalid boot device ${device} specified.`);
    },
    async getBootDevice() {
      return { boot_device: 'pxe', persistent: false };
    },
    async injectNmi() {},
    async getSupportedBootModes() {
      return ['bios', 'uefi'];
    },
    async getBootMode(task: DriverTask) {
      return task.node.boot_mode;
    },
    async setBootMode(task: DriverTask, mode: string) {
      task.node.boot_mode = mode;
    },
    async getSecureBootState(task: DriverTask) {
      return task.node.secure_boot;
    },
    async setSecureBootState(task: DriverTask, enabled: boolean) {
      task.node.secure_boot = enabled;
    },
  };
}
