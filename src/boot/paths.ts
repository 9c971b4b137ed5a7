/**
 * Where Ironic lays out per-node boot files. PXE (pxelinux/grub) lives under
 * tftp_root, iPXE under http_root; both share the node directory scheme
 * `<root>/<node uuid>/` holding `config` plus the kernel/ramdisk files.
 */
import * as path from 'node:path';
import { DEFAULTS, type BootNode, type BootPort, type PxeConf } from './options';

export function rootDir(conf: PxeConf, ipxe: boolean): string {
  return ipxe ? conf.http_root : conf.tftp_root;
}

export function nodeDir(conf: PxeConf, node: Pick<BootNode, 'uuid' | 'ipxe_enabled'>): string {
  return path.join(rootDir(conf, node.ipxe_enabled), node.uuid);
}

export function configFilePath(conf: PxeConf, node: Pick<BootNode, 'uuid' | 'ipxe_enabled'>): string {
  return path.join(nodeDir(conf, node), 'config');
}

function subdir(conf: PxeConf): string {
  return conf.pxe_config_subdir ?? DEFAULTS.pxe_config_subdir;
}

/**
 * pxelinux looks up `01-<mac>` (hardware type 1 = Ethernet, 20 for
 * InfiniBand client-ids); iPXE's boot script requests the bare `<mac>`.
 */
export function macConfigPath(conf: PxeConf, port: BootPort, ipxe: boolean): string {
  const hyphenated = port.address.replace(/:/g, '-').toLowerCase();
  if (ipxe) return path.join(conf.http_root, subdir(conf), hyphenated);
  const hwType = port.client_id ? '20-' : '01-';
  return path.join(conf.tftp_root, subdir(conf), hwType + hyphenated);
}

/** grub2 looks for grub.cfg-01-<mac> and the initial grub.cfg chains <mac>.conf. */
export function grubMacConfigPaths(conf: PxeConf, port: BootPort, ipxe: boolean): string[] {
  const root = rootDir(conf, ipxe);
  return [
    path.join(root, `grub.cfg-01-${port.address.replace(/:/g, '-').toLowerCase()}`),
    path.join(root, `${port.address}.conf`),
  ];
}

export function ipConfigPath(conf: PxeConf, ip: string): string {
  return path.join(conf.tftp_root, `${ip}.conf`);
}

export function kernelRamdiskLabels(mode: 'deploy' | 'rescue'): [string, string] {
  return [`${mode}_kernel`, `${mode}_ramdisk`];
}
