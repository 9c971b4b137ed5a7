/** Firmware management disabled for this node. */
import type { FirmwareInterface } from '../base';
import { unsupported } from '../unsupported';

export function createNoFirmware(): FirmwareInterface {
  return {
    kind: 'firmware', name: 'no-firmware', className: 'NoFirmware',
    properties: () => ({}),
    async validate(task) {
      unsupported(task, 'firmware');
    },
    async update(task) {
      return unsupported(task, 'firmware');
    },
    async cacheFirmwareComponents() {},
  };
}
