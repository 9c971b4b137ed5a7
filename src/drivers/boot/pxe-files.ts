/**
 * The per-node side of network boot: which node the src/boot layer sees (ports, boot mode,
 * kernel command line), fetching kernels/ramdisks through the master image cache into the node
 * directory, and the node's DHCP boot options.
 */
import * as path from 'node:path';
import { nodeDir } from '../../boot/paths';
import type { BootNode, PxeConf } from '../../boot/options';
import { ImageDownloadFailed } from '../../common/errors';
import { dhcpOptionsForInstance, bootFileFor, type DhcpOption } from '../../dhcp/boot-options';
import type { DhcpNode, DhcpProvider, PortVif } from '../../dhcp/provider';
import type { PortRecord, PortgroupRecord } from '../../db/models';
import type { DriverTask, JsonObject } from '../base';
import { bootModeOf, pxeMacs, type RamdiskMode } from './pxe-node';
import { dhcpBootConfFor, dhcpProviderFor, masterImageCache, type BootFlavor } from './pxe-settings';

type Dict = Record<string, unknown>;

/** driver_utils.get_kernel_append_params: instance_info, driver_info, then the option; %default% expands. */
function kernelAppendParams(task: DriverTask, confDefault: string): string {
  const ii = (task.node.instance_info ?? {}) as Dict;
  const di = (task.node.driver_info ?? {}) as Dict;
  const chosen = [ii.kernel_append_params, di.kernel_append_params].find((v) => typeof v === 'string' && v);
  return chosen === undefined ? confDefault : String(chosen).replace(/%default%/g, confDefault);
}

/** pxe_utils.build_extra_pxe_options: the append line plus ramdisk parameters as key=value. */
export function kernelCommandLine(task: DriverTask, conf: PxeConf, ramdiskParams: JsonObject): string {
  let line = kernelAppendParams(task, conf.kernel_append_params ?? '');
  if (task.ctx.conf.bool('DEFAULT', 'debug') && !line.includes('ipa-debug')) line += ' ipa-debug=1';
  const extra = Object.entries(ramdiskParams).map(([k, v]) => (v === null || v === undefined ? k : `${k}=${String(v)}`));
  return extra.length ? `${line} ${extra.join(' ')}` : line;
}

interface NodeFiles {
  mode: RamdiskMode;
  /** Present when the instance kernel/ramdisk are placed in the node directory too. */
  instance?: boolean;
  appendParams?: string;
}

export function bootNodeFor(task: DriverTask, flavor: BootFlavor, conf: PxeConf, files: NodeFiles): BootNode {
  const ii = (task.node.instance_info ?? {}) as Dict;
  const node: BootNode = {
    uuid: task.node.uuid,
    ports: task.ports.filter((p) => p.pxe_enabled !== false && p.address).map((p) => {
      const clientId = (p.extra as Dict | null)?.['client-id'];
      return typeof clientId === 'string' ? { address: p.address!, client_id: clientId } : { address: p.address! };
    }),
    // HTTP boot is a UEFI feature: grub is what such firmware loads.
    boot_mode: flavor.http ? 'uefi' : bootModeOf(task),
    ipxe_enabled: flavor.ipxe,
    deploy_kernel: '',
    deploy_ramdisk: '',
    mode: files.mode,
  };
  const dir = nodeDir(conf, node);
  node.deploy_kernel = path.join(dir, `${files.mode}_kernel`);
  node.deploy_ramdisk = path.join(dir, `${files.mode}_ramdisk`);
  if (files.instance) {
    node.kernel = path.join(dir, 'kernel');
    node.ramdisk = path.join(dir, 'ramdisk');
  }
  if (typeof ii.ramdisk_kernel_arguments === 'string') node.ramdisk_kernel_arguments = ii.ramdisk_kernel_arguments;
  if (files.appendParams !== undefined) node.kernel_append_params = files.appendParams;
  if (task.node.deploy_interface === 'iscsi') node.iscsi = true;
  return node;
}

/** Image hrefs as the cache takes them: URLs, with a bare absolute path read as file://. */
function asImageSource(href: string): string {
  return href.startsWith('/') ? `file://${href}` : href;
}

/** pxe_utils.cache_ramdisk_kernel: each (label, href) ends up as <node dir>/<label>. */
export async function cacheImages(task: DriverTask, conf: PxeConf, node: BootNode, images: Array<[string, string]>): Promise<void> {
  const cache = masterImageCache(task.ctx.conf);
  const dir = nodeDir(conf, node);
  // All settle before a failure is reported: no fetch keeps writing into the node dir afterwards.
  const results = await Promise.allSettled(images.map(([label, href]) => cache.fetchTo({ image_source: asImageSource(href) }, path.join(dir, label))));
  results.forEach((r, i) => {
    if (r.status === 'rejected') throw new ImageDownloadFailed({ image_href: images[i]![1], reason: (r.reason as Error).message });
  });
}

/** The boot file for UEFI HTTP boot is a URL on [deploy]http_url. */
function httpBootOptions(task: DriverTask, flavor: BootFlavor): DhcpOption[] {
  const conf = dhcpBootConfFor(task.ctx.conf);
  const base = conf.http_url.replace(/\/+$/, '');
  const arch = (task.node.properties as Dict | null)?.cpu_arch;
  const file = bootFileFor({ boot_mode: 'uefi', ipxe_enabled: flavor.ipxe, ...(typeof arch === 'string' ? { cpu_arch: arch } : {}) }, conf);
  const script = `${base}/${path.basename(conf.ipxe_boot_script ?? 'boot.ipxe')}`;
  const opts: Array<[string, string]> = flavor.ipxe
    ? [['tag:!ipxe,67', `${base}/${file}`], ['tag:ipxe,67', script]]
    : [['67', `${base}/${file}`]];
  // UEFI HTTP clients only accept offers that echo their vendor class.
  opts.push(['60', 'HTTPClient']);
  return opts.map(([opt_name, opt_value]) => ({ opt_name, opt_value, ip_version: 4 as const }));
}

function dhcpOptionsFor(task: DriverTask, flavor: BootFlavor, supportsIpxeTag: boolean): DhcpOption[] {
  if (flavor.http) return httpBootOptions(task, flavor);
  const arch = (task.node.properties as Dict | null)?.cpu_arch;
  const ipVersion = task.ctx.conf.str('pxe', 'ip_version') === '6' ? 6 : 4;
  return dhcpOptionsForInstance(
    { boot_mode: bootModeOf(task), ipxe_enabled: flavor.ipxe, ...(typeof arch === 'string' ? { cpu_arch: arch } : {}) },
    dhcpBootConfFor(task.ctx.conf),
    { ip_version: ipVersion, supports_ipxe_tag: supportsIpxeTag },
  );
}

/** What the provider reads of the node; the VIFs only for a provider that works on Neutron ports. */
function dhcpNode(task: DriverTask, provider: DhcpProvider): DhcpNode {
  const tag = (task.node.driver_internal_info as Dict | null)?.dnsmasq_tag;
  const vifOf = (p: PortRecord | PortgroupRecord): PortVif => ({ uuid: p.uuid, vif: task.driver.network.getCurrentVif(task, p) });
  return {
    uuid: task.node.uuid, pxe_macs: pxeMacs(task), ...(typeof tag === 'string' ? { dnsmasq_tag: tag } : {}),
    ...(provider.usesVifs ? { vifs: { ports: task.ports.map(vifOf), portgroups: task.portgroups.map(vifOf) } } : {}),
  };
}

/** provider.update_dhcp; a newly issued dnsmasq tag is kept in driver_internal_info. */
export async function updateDhcp(task: DriverTask, flavor: BootFlavor): Promise<void> {
  const provider = dhcpProviderFor(task.ctx.conf);
  const node = dhcpNode(task, provider);
  const result = await provider.updateDhcpOpts(node, dhcpOptionsFor(task, flavor, provider.supportsIpxeTag()));
  if (result.tag && result.tag !== node.dnsmasq_tag) {
    task.node.driver_internal_info = { ...(task.node.driver_internal_info ?? {}), dnsmasq_tag: result.tag };
    await task.saveNode();
  }
}

export async function cleanDhcp(task: DriverTask): Promise<void> {
  const provider = dhcpProviderFor(task.ctx.conf);
  await provider.cleanDhcpOpts(dhcpNode(task, provider));
}

export async function dhcpIpAddresses(task: DriverTask): Promise<string[]> {
  const provider = dhcpProviderFor(task.ctx.conf);
  return provider.getIpAddresses(dhcpNode(task, provider));
}
