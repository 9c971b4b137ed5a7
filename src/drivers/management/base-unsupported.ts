/**
 * The boot mode and secure boot methods of Ironic's base ManagementInterface, which a management
 * interface without them inherits: each raises UnsupportedDriverExtension, so a boot mode or secure
 * boot change ends in the node's last_error instead of a recorded mode (21.4.4's fake and ipmitool).
 */
import { UnsupportedDriverExtension } from '../../common/errors';
import type { DriverTask, ManagementInterface } from '../base';

function refuse(task: DriverTask, extension: string): never {
  throw new UnsupportedDriverExtension({ driver: task.node.driver, extension });
}

export const UNSUPPORTED_BOOT_MODE_METHODS: Pick<ManagementInterface,
  'getSupportedBootModes' | 'getBootMode' | 'setBootMode' | 'getSecureBootState' | 'setSecureBootState'> = {
  async getSupportedBootModes(task) {
    return refuse(task, 'get_supported_boot_modes');
  },
  async getBootMode(task) {
    return refuse(task, 'get_boot_mode');
  },
  async setBootMode(task) {
    return refuse(task, 'set_boot_mode');
  },
  async getSecureBootState(task) {
    return refuse(task, 'get_secure_boot_state');
  },
  async setSecureBootState(task) {
    return refuse(task, 'set_secure_boot_state');
  },
};
