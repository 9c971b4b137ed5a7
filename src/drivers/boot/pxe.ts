/** pxe boot (drivers/modules/pxe.py PXEBoot): pxelinux (BIOS) or grub (UEFI) configs over TFTP. */
import type { BootInterface } from '../base';
import { createNetworkBoot } from './pxe-base';

export function createPxeBoot(): BootInterface {
  return createNetworkBoot({ name: 'pxe', className: 'PXEBoot', ipxe: false, http: false });
}
