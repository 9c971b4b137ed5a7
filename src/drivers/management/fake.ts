/** Fake management: PXE is the only boot device, no boot mode control (drivers/modules/fake.py FakeManagement). */
import { InvalidParameterValue, UnsupportedDriverExtension } from '../../common/errors';
import type { DriverTask, ManagementInterface } from '../base';
import { UNSUPPORTED_BOOT_MODE_METHODS } from './base-unsupported';
import { FAKE_INDICATOR_METHODS } from './fake-indicators';

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
    // FakeManagement inherits Ironic's base inject_nmi, which is unsupported.
    async injectNmi(task: DriverTask) {
      throw new UnsupportedDriverExtension({ driver: task.node.driver, extension: 'inject_nmi' });
    },
    ...UNSUPPORTED_BOOT_MODE_METHODS,
    ...FAKE_INDICATOR_METHODS,
  };
}
