/**
 * Per-node network boot configuration: renders the pxelinux / grub / iPXE
 * config into `<root>/<uuid>/config`, links it under each MAC address name
 * the boot loaders look for, places kernel/ramdisk next to it, switches the
 * default entry to the instance after deploy, and removes it all again.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { DEFAULTS, appendParams, type BootNode, type PxeConf } from './options';
import { configFilePath, grubMacConfigPaths, ipConfigPath, kernelRamdiskLabels, macConfigPath, nodeDir, rootDir } from './paths';
import { renderTemplate } from './templates';
import type { IscsiBootOptions } from './volume-options';

class PxeConfigError extends Error {
  override readonly name = 'PxeConfigError';
}

/** The `pxe_options` object the templates see. */
interface PxeTemplateOptions {
  deployment_aki_path: string;
  deployment_ari_path: string;
  aki_path: string;
  ari_path: string;
  pxe_append_params: string;
  tftp_server: string;
  /** milliseconds, as Ironic passes it to iPXE's --timeout */
  ipxe_timeout: number;
  initrd_filename?: string;
  ramdisk_opts?: string;
}

/** A node booting from a volume has no deploy ramdisk entry, and the boot_iscsi entry's details. */
type VolumePxeOptions = Omit<PxeTemplateOptions, 'deployment_aki_path' | 'deployment_ari_path' | 'initrd_filename'> & IscsiBootOptions;

/**
 * The entries a config switches to; `boot` is the iscsi deploy's instance entry (boot_partition elsewhere),
 * `boot_iscsi` the boot from an iSCSI volume.
 */
export type BootTarget = 'boot_partition' | 'boot_whole_disk' | 'boot_ramdisk' | 'boot' | 'boot_iscsi';

function usesGrub(node: BootNode): boolean {
  return node.boot_mode === 'uefi' && !node.ipxe_enabled;
}

/** Paths are TFTP-root relative for PXE and full URLs for iPXE. */
function bootPath(node: BootNode, conf: PxeConf, label: string): string {
  if (node.ipxe_enabled) return [conf.http_url.replace(/\/+$/, ''), node.uuid, label].join('/');
  return path.relative(conf.tftp_root, path.join(nodeDir(conf, node), label));
}

export function buildPxeOptions(node: BootNode, conf: PxeConf): PxeTemplateOptions {
  const [kernelLabel, ramdiskLabel] = kernelRamdiskLabels(node.mode ?? 'deploy');
  const opts: PxeTemplateOptions = {
    deployment_aki_path: bootPath(node, conf, kernelLabel),
    deployment_ari_path: bootPath(node, conf, ramdiskLabel),
    aki_path: node.kernel ? bootPath(node, conf, 'kernel') : 'no_kernel',
    ari_path: node.ramdisk ? bootPath(node, conf, 'ramdisk') : 'no_ramdisk',
    pxe_append_params: appendParams(node, conf),
    tftp_server: conf.tftp_server,
    ipxe_timeout: (conf.ipxe_timeout ?? 0) * 1000,
  };
  if (node.ipxe_enabled) opts.initrd_filename = ramdiskLabel;
  if (node.ramdisk_kernel_arguments) opts.ramdisk_opts = node.ramdisk_kernel_arguments;
  return opts;
}

/** build_pxe_config_options of a node booting from a volume (iPXE): the volume's options replace the deploy ones. */
export function buildVolumePxeOptions(node: BootNode, conf: PxeConf, iscsi: IscsiBootOptions): VolumePxeOptions {
  const { deployment_aki_path: _kernel, deployment_ari_path: _ramdisk, initrd_filename: _initrd, ...rest } = buildPxeOptions(node, conf);
  return { ...rest, ...iscsi };
}

function templateFor(node: BootNode, conf: PxeConf): string {
  if (node.ipxe_enabled) return conf.ipxe_config_template ?? DEFAULTS.ipxe_config_template;
  if (node.boot_mode === 'uefi') return conf.uefi_pxe_config_template ?? DEFAULTS.uefi_pxe_config_template;
  if (node.iscsi) return DEFAULTS.iscsi_pxe_config_template;
  return conf.pxe_config_template ?? DEFAULTS.pxe_config_template;
}

/** Renders the node's config; the ROOT/DISK_IDENTIFIER markers stay literal until switch time. */
function renderPxeConfig(node: BootNode, conf: PxeConf, pxeOptions: PxeTemplateOptions | VolumePxeOptions = buildPxeOptions(node, conf)): string {
  // grub cannot cope with braces, hence the (( )) markers in UEFI/grub configs.
  const [open, close] = usesGrub(node) ? ['((', '))'] : ['{{', '}}'];
  return renderTemplate(templateFor(node, conf), {
    pxe_options: pxeOptions,
    ROOT: `${open} ROOT ${close}`,
    DISK_IDENTIFIER: `${open} DISK_IDENTIFIER ${close}`,
  });
}

async function ensureDir(dir: string, conf: PxeConf): Promise<void> {
  await fsp.mkdir(dir, { recursive: true, mode: conf.dir_permission ?? DEFAULTS.dir_permission });
}

async function replaceSymlink(target: string, linkPath: string): Promise<void> {
  await fsp.rm(linkPath, { force: true });
  await fsp.symlink(path.relative(path.dirname(linkPath), target), linkPath);
}

function linkPathsFor(node: BootNode, conf: PxeConf): string[] {
  const paths: string[] = [];
  for (const port of node.ports) {
    paths.push(macConfigPath(conf, port, node.ipxe_enabled), ...grubMacConfigPaths(conf, port, node.ipxe_enabled));
  }
  if (usesGrub(node)) for (const ip of node.ip_addresses ?? []) paths.push(ipConfigPath(conf, ip));
  return paths;
}

/** Hard link when on the same filesystem (cheap, shares the cache), else copy. */
async function placeFile(source: string, dest: string, mode: number): Promise<void> {
  await fsp.rm(dest, { force: true });
  try {
    await fsp.link(source, dest);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new PxeConfigError(`boot file ${source} does not exist`);
    await fsp.copyFile(source, dest);
    await fsp.chmod(dest, mode);
  }
}

async function placeBootFiles(node: BootNode, conf: PxeConf): Promise<void> {
  const dir = nodeDir(conf, node);
  await ensureDir(dir, conf);
  const [kernelLabel, ramdiskLabel] = kernelRamdiskLabels(node.mode ?? 'deploy');
  const files: Array<[string | undefined, string]> = [
    [node.deploy_kernel, kernelLabel],
    [node.deploy_ramdisk, ramdiskLabel],
    [node.kernel, 'kernel'],
    [node.ramdisk, 'ramdisk'],
  ];
  const mode = conf.file_permission ?? DEFAULTS.file_permission;
  for (const [source, label] of files) if (source) await placeFile(source, path.join(dir, label), mode);
}

/** Writes `<root>/<uuid>/config` and every MAC/IP link to it; returns the config path. */
export async function createPxeConfig(node: BootNode, conf: PxeConf, pxeOptions?: PxeTemplateOptions | VolumePxeOptions): Promise<string> {
  const configPath = configFilePath(conf, node);
  await ensureDir(path.dirname(configPath), conf);
  await ensureDir(path.join(rootDir(conf, node.ipxe_enabled), conf.pxe_config_subdir ?? DEFAULTS.pxe_config_subdir), conf);
  await fsp.writeFile(configPath, renderPxeConfig(node, conf, pxeOptions), { mode: conf.file_permission ?? DEFAULTS.file_permission });
  for (const link of linkPathsFor(node, conf)) await replaceSymlink(configPath, link);
  return configPath;
}

/** Everything a deploy needs: kernel/ramdisk in place plus the config. */
export async function prepareNodeBoot(node: BootNode, conf: PxeConf): Promise<string> {
  await placeBootFiles(node, conf);
  return createPxeConfig(node, conf);
}

interface SwitchOptions {
  target: BootTarget;
  rootUuid?: string;
  diskIdentifier?: string;
}

const ROOT_MARKER = /(\(\(|\{\{) ROOT (\)\)|\}\})/g;
const DISK_MARKER = /(\(\(|\{\{) DISK_IDENTIFIER (\)\)|\}\})/g;

/** Rewrites the marker(s) and the line that selects the default entry. */
function switchConfigText(text: string, node: BootNode, sw: SwitchOptions): string {
  let out = text;
  if (sw.rootUuid !== undefined) out = out.replace(ROOT_MARKER, `UUID=${sw.rootUuid}`);
  if (sw.diskIdentifier !== undefined) out = out.replace(DISK_MARKER, sw.diskIdentifier);
  if (usesGrub(node)) return out.replace(/^((set )?default)=.*$/gm, `$1=${sw.target}`);
  const cmd = node.ipxe_enabled ? 'goto' : 'default';
  return out.replace(new RegExp(`^${cmd} .*$`, 'gm'), `${cmd} ${sw.target}`);
}

export async function switchPxeConfig(node: BootNode, conf: PxeConf, sw: SwitchOptions): Promise<void> {
  const configPath = configFilePath(conf, node);
  let text: string;
  try {
    text = await fsp.readFile(configPath, 'utf8');
  } catch {
    throw new PxeConfigError(`no PXE config for node ${node.uuid} at ${configPath}`);
  }
  await fsp.writeFile(configPath, switchConfigText(text, node, sw));
}

/** After a partition-image deploy: boot the instance kernel with root=UUID=<rootUuid>. */
export function switchToBoot(node: BootNode, conf: PxeConf, rootUuid: string): Promise<void> {
  return switchPxeConfig(node, conf, { target: 'boot_partition', rootUuid });
}

/** Undeploy: remove MAC/IP links and the node directory. Missing files are fine. */
export async function cleanUpPxeConfig(node: BootNode, conf: PxeConf): Promise<void> {
  for (const link of linkPathsFor(node, conf)) await fsp.rm(link, { force: true });
  await fsp.rm(nodeDir(conf, node), { recursive: true, force: true });
}

/** Renders the shared iPXE entry script into http_root, rewriting only on change. */
export async function createIpxeBootScript(conf: PxeConf): Promise<string> {
  const template = conf.ipxe_boot_script ?? DEFAULTS.ipxe_boot_script;
  const text = renderTemplate(template, {
    ipxe_for_mac_uri: (conf.pxe_config_subdir ?? DEFAULTS.pxe_config_subdir) + '/',
    ipxe_fallback_script: conf.ipxe_fallback_script ?? '',
  });
  const dest = path.join(conf.http_root, path.basename(template));
  const current = await fsp.readFile(dest, 'utf8').catch(() => undefined);
  if (current !== text) {
    await ensureDir(conf.http_root, conf);
    await fsp.writeFile(dest, text, { mode: conf.file_permission ?? DEFAULTS.file_permission });
  }
  return dest;
}

/** Node-independent grub entry config at <tftp_root>/grub/grub.cfg; undefined when disabled. */
export async function placeCommonConfig(conf: PxeConf): Promise<string | undefined> {
  const template = conf.initial_grub_template ?? DEFAULTS.initial_grub_template;
  if (!template) return undefined;
  const grubDir = path.join(conf.tftp_root, 'grub');
  await ensureDir(grubDir, conf);
  const dest = path.join(grubDir, 'grub.cfg');
  await fsp.writeFile(dest, renderTemplate(template, { tftp_root: conf.tftp_root }), { mode: conf.file_permission ?? DEFAULTS.file_permission });
  return dest;
}
