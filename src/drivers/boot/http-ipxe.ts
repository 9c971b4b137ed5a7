/** http-ipxe boot (drivers/modules/ipxe.py iPXEHttpBootInterface): UEFI HTTP boot loads iPXE, which runs the iPXE scripts. */
import type { BootInterface } from '../base';
import { createNetworkBoot } from './pxe-base';

export function createHttpIpxeBoot(): BootInterface {
  return createNetworkBoot({ name: 'http-ipxe', className: 'iPXEHttpBootInterface', ipxe: true, http: true });
}
