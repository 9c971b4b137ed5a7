/**
 * http boot (drivers/modules/pxe.py HttpBootInterface, UEFI HTTP boot): the firmware fetches grub
 * by URL from [deploy]http_url; configs and kernels live under [deploy]http_root.
 */
import type { BootInterface } from '../base';
import { createNetworkBoot } from './pxe-base';

export function createHttpBoot(): BootInterface {
  return createNetworkBoot({ name: 'http', className: 'HttpBootInterface', ipxe: false, http: true });
}
