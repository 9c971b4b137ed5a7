/**
 * The DHCP options a node needs to network boot, in Ironic's list form
 * (`{opt_name, opt_value, ip_version}`), as pxe_utils'
 * dhcp_options_for_instance builds them. The chosen boot file depends on
 * iPXE vs PXE, boot mode and CPU architecture; iPXE clients (dnsmasq tag
 * `ipxe`, set from option 175) are instead sent the HTTP boot script.
 */

const DhcpOptionCode = {
  BOOTFILE_NAME: '67',
  BOOTFILE_URL_V6: '59',
  TFTP_SERVER_NAME: '66',
  TFTP_SERVER_ADDRESS: '150',
  IPXE_ENCAP_OPTS: '175',
  TFTP_PATH_PREFIX: '210',
  SERVER_IP_ADDRESS: '255',
} as const;

export interface DhcpOption {
  opt_name: string;
  opt_value: string;
  ip_version: 4 | 6;
}

/** [pxe] options that influence DHCP boot parameters, named as in Ironic. */
export interface DhcpBootConf {
  tftp_server: string;
  tftp_root: string;
  /** [deploy]http_url */
  http_url: string;
  pxe_bootfile_name?: string;
  uefi_pxe_bootfile_name?: string;
  ipxe_bootfile_name?: string;
  uefi_ipxe_bootfile_name?: string;
  pxe_bootfile_name_by_arch?: Record<string, string>;
  ipxe_bootfile_name_by_arch?: Record<string, string>;
  /** Only its base name matters: the script is served from http_url. */
  ipxe_boot_script?: string;
  /** [DEFAULT]my_ipv6, used for IPv6 TFTP URLs. */
  my_ipv6?: string;
}

interface DhcpBootNode {
  boot_mode: 'bios' | 'uefi';
  ipxe_enabled: boolean;
  /** properties.cpu_arch */
  cpu_arch?: string;
}

interface DhcpBootRequest {
  ip_version?: 4 | 6;
  /** Hand out a tftp:// URL instead of a file name (always so for IPv6). */
  url_boot?: boolean;
  /** Whether the DHCP backend tags iPXE clients (`ipxe`/`ipxe6`); dnsmasq does. */
  supports_ipxe_tag?: boolean;
}

/** deploy_utils.get_pxe_boot_file / get_ipxe_boot_file equivalents. */
export function bootFileFor(node: DhcpBootNode, conf: DhcpBootConf): string {
  const byArch = node.ipxe_enabled ? conf.ipxe_bootfile_name_by_arch : conf.pxe_bootfile_name_by_arch;
  const archFile = node.cpu_arch ? byArch?.[node.cpu_arch] : undefined;
  if (archFile) return archFile;
  if (node.ipxe_enabled) {
    return node.boot_mode === 'uefi' ? (conf.uefi_ipxe_bootfile_name ?? 'snponly.efi') : (conf.ipxe_bootfile_name ?? 'undionly.kpxe');
  }
  return node.boot_mode === 'uefi' ? (conf.uefi_pxe_bootfile_name ?? 'bootx64.efi') : (conf.pxe_bootfile_name ?? 'pxelinux.0');
}

function wrapV6(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

function basename(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}

export function dhcpOptionsForInstance(node: DhcpBootNode, conf: DhcpBootConf, req: DhcpBootRequest = {}): DhcpOption[] {
  const ipVersion = req.ip_version ?? 4;
  const urlBoot = ipVersion === 6 ? true : (req.url_boot ?? false);
  const bootParam = ipVersion === 4 ? DhcpOptionCode.BOOTFILE_NAME : DhcpOptionCode.BOOTFILE_URL_V6;
  let bootFile = bootFileFor(node, conf);
  if (urlBoot) {
    const host = ipVersion === 6 && conf.my_ipv6 ? conf.my_ipv6 : conf.tftp_server;
    bootFile = `tftp://${wrapV6(host)}/${bootFile}`;
  }
  const opts: Array<[string, string]> = [];
  if (node.ipxe_enabled) {
    const script = `${conf.http_url.replace(/\/+$/, '')}/${basename(conf.ipxe_boot_script ?? 'boot.ipxe')}`;
    if (req.supports_ipxe_tag ?? true) {
      const tag = ipVersion === 6 ? 'ipxe6' : 'ipxe';
      opts.push([`tag:!${tag},${bootParam}`, bootFile], [`tag:${tag},${bootParam}`, script]);
    } else {
      opts.push([`!${DhcpOptionCode.IPXE_ENCAP_OPTS},${bootParam}`, bootFile], [bootParam, script]);
    }
  } else {
    opts.push([bootParam, bootFile]);
    // Petitboot does not infer the pxelinux.cfg location: give it the prefix.
    if (!urlBoot) opts.push([DhcpOptionCode.TFTP_PATH_PREFIX, conf.tftp_root.replace(/\/*$/, '/')]);
  }
  if (!urlBoot) {
    opts.push([DhcpOptionCode.TFTP_SERVER_NAME, conf.tftp_server], [DhcpOptionCode.TFTP_SERVER_ADDRESS, conf.tftp_server]);
    // dnsmasq otherwise fills siaddr with its own address, which PXE ROMs use as the TFTP server.
    opts.push([DhcpOptionCode.SERVER_IP_ADDRESS, conf.tftp_server]);
  }
  return opts.map(([opt_name, opt_value]) => ({ opt_name, opt_value, ip_version: ipVersion }));
}
