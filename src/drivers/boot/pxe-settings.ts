/**
 * The [pxe], [deploy], [dhcp] and [dnsmasq] options the network boot interfaces read, turned into
 * the plain option objects of src/boot and src/dhcp, plus the shared master image cache.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PxeConf } from '../../boot/options';
import type { Config } from '../../conf/config';
import type { GroupName, OptionName } from '../../conf/registry';
import { log } from '../../common/log';
import type { DhcpBootConf } from '../../dhcp/boot-options';
import { neutronClient, neutronConfigured } from '../../common/neutron/client';
import { createDhcpProvider } from '../../dhcp/factory';
import { NoneDhcpProvider, type DhcpProvider } from '../../dhcp/provider';
import type { ImageCache } from '../../images/cache';
import { masterImageCacheAt } from '../master-image-cache';

/** How an implementation boots: which loader script and which folder/protocol serve its files. */
export interface BootFlavor {
  name: string;
  className: string;
  /** iPXE scripts (ipxe, http-ipxe) rather than pxelinux/grub configs. */
  ipxe: boolean;
  /** UEFI HTTP boot (http, http-ipxe): the DHCP boot file is a URL. */
  http: boolean;
}

/** Files go under [deploy]http_root for iPXE and HTTP boot (Ironic's _use_http_folder). */
export function usesHttpFolder(flavor: BootFlavor): boolean {
  return flavor.ipxe || flavor.http;
}

/** An option the operator set explicitly, or undefined so the bundled template applies. */
function explicit<G extends GroupName>(conf: Config, group: G, name: OptionName<G>): string | undefined {
  // An explicit empty value stays empty (it disables initial_grub_template).
  return conf.has(group, name) ? conf.str(group, name) : undefined;
}

function optInt<G extends GroupName>(conf: Config, group: G, name: OptionName<G>): number | undefined {
  const v = conf.raw(group, name);
  return typeof v === 'number' ? v : undefined;
}

export function pxeConfFor(conf: Config, flavor: BootFlavor): PxeConf {
  const httpRoot = conf.str('deploy', 'http_root');
  const out: PxeConf = {
    // HTTP boot loads grub over HTTP: its per-node tree lives under http_root, laid out as PXE's.
    tftp_root: flavor.http && !flavor.ipxe ? httpRoot : conf.str('pxe', 'tftp_root'),
    tftp_server: conf.str('pxe', 'tftp_server'),
    http_root: httpRoot,
    http_url: conf.str('deploy', 'http_url'),
    kernel_append_params: conf.str('pxe', 'kernel_append_params'),
    ipxe_timeout: conf.int('pxe', 'ipxe_timeout'),
    pxe_config_subdir: conf.str('pxe', 'pxe_config_subdir'),
  };
  const templates: Array<[keyof PxeConf, OptionName<'pxe'>]> = [
    ['pxe_config_template', 'pxe_config_template'], ['uefi_pxe_config_template', 'uefi_pxe_config_template'],
    ['ipxe_config_template', 'ipxe_config_template'], ['ipxe_boot_script', 'ipxe_boot_script'],
    ['initial_grub_template', 'initial_grub_template'],
  ];
  for (const [key, name] of templates) {
    const v = explicit(conf, 'pxe', name);
    // An ironic.conf naming Ironic's own template ($pybasedir/...) that is not installed here
    // gets the bundled template of the same name.
    if (v !== undefined) (out as unknown as Record<string, unknown>)[key] = v && !fs.existsSync(v) ? path.basename(v) : v;
  }
  const fallback = conf.optStr('pxe', 'ipxe_fallback_script');
  if (fallback) out.ipxe_fallback_script = fallback;
  const filePerm = optInt(conf, 'pxe', 'file_permission');
  if (filePerm !== undefined) out.file_permission = filePerm;
  const dirPerm = optInt(conf, 'pxe', 'dir_permission');
  if (dirPerm !== undefined) out.dir_permission = dirPerm;
  return out;
}

function dictOpt<G extends GroupName>(conf: Config, group: G, name: OptionName<G>): Record<string, string> | undefined {
  const v = conf.raw(group, name);
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, string>) : undefined;
}

export function dhcpBootConfFor(conf: Config): DhcpBootConf {
  const out: DhcpBootConf = {
    tftp_server: conf.str('pxe', 'tftp_server'),
    tftp_root: conf.str('pxe', 'tftp_root'),
    http_url: conf.str('deploy', 'http_url'),
    pxe_bootfile_name: conf.str('pxe', 'pxe_bootfile_name'),
    uefi_pxe_bootfile_name: conf.str('pxe', 'uefi_pxe_bootfile_name'),
    ipxe_bootfile_name: conf.str('pxe', 'ipxe_bootfile_name'),
    uefi_ipxe_bootfile_name: conf.str('pxe', 'uefi_ipxe_bootfile_name'),
  };
  const pxeByArch = dictOpt(conf, 'pxe', 'pxe_bootfile_name_by_arch');
  if (pxeByArch) out.pxe_bootfile_name_by_arch = pxeByArch;
  const ipxeByArch = dictOpt(conf, 'pxe', 'ipxe_bootfile_name_by_arch');
  if (ipxeByArch) out.ipxe_bootfile_name_by_arch = ipxeByArch;
  const script = explicit(conf, 'pxe', 'ipxe_boot_script');
  if (script) out.ipxe_boot_script = script;
  const v6 = conf.optStr('DEFAULT', 'my_ipv6');
  if (v6) out.my_ipv6 = v6;
  return out;
}

const warnedProviders = new Set<string>();

/**
 * [dhcp]dhcp_provider. `neutron` (Ironic's default) sets the options on the node's Neutron ports
 * when [neutron] names a Neutron; a conductor with no Neutron configured acts as `none` instead of
 * failing every network boot (the operator's DHCP must hand out the boot files), said once in the log.
 */
export function dhcpProviderFor(conf: Config): DhcpProvider {
  const name = conf.str('dhcp', 'dhcp_provider');
  if (name === 'dnsmasq') {
    const leasefile = conf.optStr('dnsmasq', 'dhcp_leasefile');
    const pidFile = conf.optStr('dnsmasq', 'pid_file');
    return createDhcpProvider('dnsmasq', { dnsmasq: {
      dhcp_optsdir: conf.str('dnsmasq', 'dhcp_optsdir'),
      dhcp_hostsdir: conf.str('dnsmasq', 'dhcp_hostsdir'),
      ...(leasefile ? { dhcp_leasefile: leasefile } : {}),
      ...(pidFile ? { pid_file: pidFile } : {}),
    } });
  }
  if (name === 'neutron' && neutronConfigured(conf)) {
    return createDhcpProvider('neutron', { neutron: { client: neutronClient(conf), portSetupDelay: conf.int('neutron', 'port_setup_delay') } });
  }
  if (name !== 'none' && !warnedProviders.has(name)) {
    warnedProviders.add(name);
    log.warning(`DHCP provider ${name} has no service configured in ironic-ts (no [neutron] endpoint_override or auth); network boot options are not set (acting as "none")`);
  }
  return new NoneDhcpProvider();
}

/** The master cache of deploy/instance kernels and ramdisks ([pxe]tftp_master_path, Ironic's TFTPImageCache). */
export function masterImageCache(conf: Config): ImageCache {
  return masterImageCacheAt(conf, conf.optStr('pxe', 'tftp_master_path') ?? path.join(conf.str('pxe', 'tftp_root'), 'master_images'));
}

/** deploy_utils.get_ironic_api_url: the catalog override, else where this API listens. */
export function ironicApiUrl(conf: Config): string {
  const override = conf.has('service_catalog', 'endpoint_override') ? conf.optStr('service_catalog', 'endpoint_override') : null;
  if (override) return override.replace(/\/+$/, '');
  const pub = conf.optStr('api', 'public_endpoint');
  if (pub) return pub.replace(/\/+$/, '');
  const host = conf.str('api', 'host_ip');
  const shown = host === '0.0.0.0' || host === '::' ? conf.str('DEFAULT', 'my_ip') : host;
  return `http://${shown.includes(':') ? `[${shown}]` : shown}:${conf.int('api', 'port')}`;
}
