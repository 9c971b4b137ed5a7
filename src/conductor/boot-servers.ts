/**
 * The network boot servers a conductor may host itself: TFTP on [pxe]tftp_root and HTTP on
 * [deploy]http_root, each enabled by its builtin_* option (off by default). The roots are created
 * when missing, as Ironic's conductor creates them for its boot interfaces.
 */
import { promises as fsp } from 'node:fs';
import type { Config } from '../conf/config';
import { log } from '../common/log';
import { startHttpFileServer, type HttpFileServer } from '../protocols/http';
import { start as startTftp, type TftpServer, type TftpServerOptions } from '../protocols/tftp';

export interface BootServers {
  tftp?: TftpServer;
  http?: HttpFileServer;
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

export async function startBootServers(conf: Config): Promise<BootServers> {
  const out: BootServers = { stop: async () => undefined };
  if (conf.bool('pxe', 'builtin_tftp_server')) out.tftp = await startTftpServer(conf);
  try {
    if (conf.bool('deploy', 'builtin_http_server')) out.http = await startHttpServer(conf);
  } catch (err) {
    await out.tftp?.close();
    throw err;
  }
  out.stop = async () => {
    await out.tftp?.close();
    await out.http?.close();
  };
  return out;
}
