/**
 * Plain option objects for boot file layout. Field names follow Ironic's
 * configuration options of the same name ([pxe], [deploy]) so a config
 * registry can pass its sections through unchanged.
 */

export interface PxeConf {
  /** [pxe]tftp_root */
  tftp_root: string;
  /** [pxe]tftp_server: IP handed to clients for TFTP. */
  tftp_server: string;
  /** [deploy]http_root: where iPXE files are written. */
  http_root: string;
  /** [deploy]http_url: URL that serves http_root. */
  http_url: string;
  /** [pxe]kernel_append_params (older name pxe_append_params). */
  kernel_append_params?: string;
  pxe_append_params?: string;
  /** [pxe]pxe_config_template: bundled name or absolute path. */
  pxe_config_template?: string;
  /** [pxe]uefi_pxe_config_template (grub). */
  uefi_pxe_config_template?: string;
  /** [pxe]ipxe_config_template */
  ipxe_config_template?: string;
  /** [pxe]ipxe_boot_script */
  ipxe_boot_script?: string;
  /** [pxe]ipxe_fallback_script */
  ipxe_fallback_script?: string;
  /** [pxe]ipxe_timeout in seconds (0 = none). */
  ipxe_timeout?: number;
  /** [pxe]initial_grub_template; empty string disables it. */
  initial_grub_template?: string;
  /** [pxe]pxe_config_subdir */
  pxe_config_subdir?: string;
  /** [pxe]file_permission, e.g. 0o644 */
  file_permission?: number;
  /** [pxe]dir_permission, e.g. 0o755 */
  dir_permission?: number;
}

export interface BootPort {
  /** MAC address aa:bb:cc:dd:ee:ff */
  address: string;
  /** port.extra['client-id'] (InfiniBand) */
  client_id?: string;
}

export interface BootNode {
  uuid: string;
  ports: BootPort[];
  boot_mode: 'bios' | 'uefi';
  ipxe_enabled: boolean;
  /** Local files to place in the node directory (deploy/rescue ramdisk). */
  deploy_kernel: string;
  deploy_ramdisk: string;
  /** Instance kernel/ramdisk (partition images); optional. */
  kernel?: string;
  ramdisk?: string;
  /** instance_info.ramdisk_kernel_arguments */
  ramdisk_kernel_arguments?: string;
  /** driver_info.kernel_append_params override. */
  kernel_append_params?: string;
  /** DHCP-assigned IPv4 addresses, for grub's <ip>.conf links (UEFI). */
  ip_addresses?: string[];
  /** 'deploy' (default) or 'rescue': which kernel/ramdisk labels are used. */
  mode?: 'deploy' | 'rescue';
  /** Deployed by the iscsi deploy: the design's config, entries `deploy` and `boot`. */
  iscsi?: boolean;
}

export const DEFAULTS = {
  pxe_config_template: 'pxe_config.template',
  iscsi_pxe_config_template: 'pxe_config_iscsi.template',
  uefi_pxe_config_template: 'pxe_grub_config.template',
  ipxe_config_template: 'ipxe_config.template',
  ipxe_boot_script: 'boot.ipxe',
  initial_grub_template: 'initial_grub_cfg.template',
  pxe_config_subdir: 'pxelinux.cfg',
  file_permission: 0o644,
  dir_permission: 0o755,
} as const;

export function appendParams(node: BootNode, conf: PxeConf): string {
  return node.kernel_append_params ?? conf.kernel_append_params ?? conf.pxe_append_params ?? 'nofb nomodeset vga=normal';
}
