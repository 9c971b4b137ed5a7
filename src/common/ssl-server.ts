/**
 * HTTP or HTTPS listeners from oslo.service's [ssl] options, as Ironic wraps its API socket when
 * [api]enable_ssl_api is set and the JSON-RPC socket when [json_rpc]use_ssl is: the server
 * certificate and key from cert_file and key_file, and with ca_file a client certificate signed
 * by that CA is required (sslutils' CERT_REQUIRED). [ssl]version is accepted and left to Node,
 * which negotiates TLS 1.2 or 1.3 (the versions sslutils still allows).
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Config } from '../conf/config';
import type { OptionName } from '../conf/registry';

function readSslFile(conf: Config, option: OptionName<'ssl'>): Buffer {
  const file = conf.optStr('ssl', option);
  if (!file) throw new Error(`[ssl]${option} is required when SSL is enabled`);
  try {
    return fs.readFileSync(file);
  } catch (err) {
    throw new Error(`Unable to read [ssl]${option} ${file}: ${(err as Error).message}`);
  }
}

/** The TLS settings of [ssl]; thrown errors name the missing or unreadable option. */
function tlsOptions(conf: Config): https.ServerOptions {
  const caFile = conf.optStr('ssl', 'ca_file');
  const ciphers = conf.optStr('ssl', 'ciphers');
  return {
    cert: readSslFile(conf, 'cert_file'),
    key: readSslFile(conf, 'key_file'),
    ...(caFile ? { ca: readSslFile(conf, 'ca_file'), requestCert: true, rejectUnauthorized: true } : {}),
    ...(ciphers ? { ciphers } : {}),
  };
}

export function createListener(conf: Config, useSsl: boolean, handler: http.RequestListener): http.Server {
  return useSsl ? https.createServer(tlsOptions(conf), handler) : http.createServer(handler);
}

/** Listens on host:port and returns the URL it serves (IPv6 addresses in brackets). */
export async function listenAt(server: http.Server, host: string, port: number): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `${server instanceof https.Server ? 'https' : 'http'}://${shownHost}:${address.port}`;
}
