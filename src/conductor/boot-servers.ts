/**
 * The network boot servers a conductor may host itself: TFTP on [pxe]tftp_root and HTTP on
 * [deploy]http_root, each enabled by its builtin_* option (off by default). The roots are created
 * when missing, as Ironic's conductor creates them for its boot interfaces.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { Config } from '../conf/config';
import { log } from '../common/log';
import { startHttpFileServer, type HttpFileServer } from '../protocols/http';
import { start as startTftp, type TftpServer, type TftpServerOptions } from '../protocols/tftp';
import { defaultDhcpRange, labInterface } from '../conf/lab';
import { startDnsmasqSupervisor, type DnsmasqSupervisor } from '../dhcp/dnsmasq-supervisor';

export interface BootServers {
  tftp?: TftpServer;
  http?: HttpFileServer;
  /** Lab mode's dnsmasq ([lab]provisioning_interface). */
  dnsmasq?: DnsmasqSupervisor;
  stop(): Promise<void>;
}

type TftpLimitOption = 'max_transfers' | 'max_transfers_per_client' | 'max_timeout' | 'retries' | 'idle_timeout' |
  'max_lifetime' | 'max_blksize' | 'max_windowsize';

function tftpLimits(conf: Config): Partial<TftpServerOptions> {
  const int = (name: TftpLimitOption) => conf.int('pxe', `builtin_tftp_${name}`);
  return {
    maxTransfers: int('max_transfers'),
    maxTransfersPerClient: int('max_transfers_per_client'),
    maxTimeoutS: int('max_timeout'),
    retries: int('retries'),
    idleMs: int('idle_timeout') * 1000,
    lifetimeMs: int('max_lifetime') * 1000,
    maxBlksize: int('max_blksize'),
    maxWindowsize: int('max_windowsize'),
  };
}

async function startTftpServer(conf: Config): Promise<TftpServer> {
  const root = conf.str('pxe', 'tftp_root');
  await fsp.mkdir(root, { recursive: true });
  const server = await startTftp({ root, host: conf.str('pxe', 'builtin_tftp_host'), port: conf.int('pxe', 'builtin_tftp_port'), ...tftpLimits(conf) });
  log.info(`Built-in TFTP server serving ${root} on ${server.address}:${server.port}`);
  return server;
}

async function startHttpServer(conf: Config): Promise<HttpFileServer> {
  const root = conf.str('deploy', 'http_root');
  await fsp.mkdir(root, { recursive: true });
  const server = await startHttpFileServer({ root, host: conf.str('deploy', 'builtin_http_host'), port: conf.int('deploy', 'builtin_http_port') });
  log.info(`Built-in HTTP server serving ${root} on ${server.url}`);
  return server;
}

/** iPXE's network boot programs, where DHCP sends machines that are not iPXE yet. */
async function installIpxePrograms(conf: Config): Promise<void> {
  const from = conf.str('lab', 'ipxe_dir');
  const root = conf.str('pxe', 'tftp_root');
  await fsp.mkdir(root, { recursive: true });
  for (const name of [conf.str('pxe', 'ipxe_bootfile_name'), conf.str('pxe', 'uefi_ipxe_bootfile_name')]) {
    await fsp.copyFile(path.join(from, name), path.join(root, name)).catch((err: Error) => {
      throw new Error(`[lab]ipxe_dir: cannot copy ${name} from ${from} (Debian's ipxe package): ${err.message}`);
    });
  }
}

async function startLabDnsmasq(conf: Config, iface: string): Promise<DnsmasqSupervisor> {
  await installIpxePrograms(conf);
  const lab = labInterface(iface);
  const script = path.basename(conf.optStr('pxe', 'ipxe_boot_script') ?? 'boot.ipxe');
  return startDnsmasqSupervisor({
    binary: conf.str('lab', 'dnsmasq_binary'),
    interface: iface,
    dhcpRange: conf.optStr('lab', 'dhcp_range') ?? defaultDhcpRange(lab, conf.str('lab', 'dhcp_lease_time')),
    dirs: {
      dhcp_hostsdir: conf.str('dnsmasq', 'dhcp_hostsdir'),
      dhcp_optsdir: conf.str('dnsmasq', 'dhcp_optsdir'),
      dhcp_leasefile: conf.str('dnsmasq', 'dhcp_leasefile'),
      // dnsmasq picks host and option files up by inotify; [dnsmasq]pid_file (SIGHUP after each
      // change) stays the operator's choice, since Debian 12's dnsmasq 2.90 crashes on SIGHUP with
      // these directories.
      pid_file: conf.optStr('dnsmasq', 'pid_file') ?? path.join(path.dirname(conf.str('dnsmasq', 'dhcp_leasefile')), 'dnsmasq.pid'),
    },
    defaultBoot: {
      bios: conf.str('pxe', 'ipxe_bootfile_name'),
      uefi: conf.str('pxe', 'uefi_ipxe_bootfile_name'),
      ipxe_script_url: `${conf.str('deploy', 'http_url').replace(/\/+$/, '')}/${script}`,
      tftp_server: conf.str('pxe', 'tftp_server'),
    },
  });
}

export async function startBootServers(conf: Config): Promise<BootServers> {
  const out: BootServers = { stop: async () => undefined };
  out.stop = async () => {
    await out.dnsmasq?.stop();
    await out.tftp?.close();
    await out.http?.close();
  };
  try {
    if (conf.bool('pxe', 'builtin_tftp_server')) out.tftp = await startTftpServer(conf);
    if (conf.bool('deploy', 'builtin_http_server')) out.http = await startHttpServer(conf);
    const iface = conf.optStr('lab', 'provisioning_interface');
    if (iface) out.dnsmasq = await startLabDnsmasq(conf, iface);
  } catch (err) {
    await out.stop();
    throw err;
  }
  return out;
}
