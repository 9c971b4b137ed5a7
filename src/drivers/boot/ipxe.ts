/** ipxe boot (drivers/modules/ipxe.py iPXEBoot): iPXE chained over TFTP, scripts and images over HTTP. */
import type { BootInterface } from '../base';
import { createNetworkBoot } from './pxe-base';

export function createIpxeBoot(): BootInterface {
  return createNetworkBoot({ name: 'ipxe', className: 'iPXEBoot', ipxe: true, http: false });
}
