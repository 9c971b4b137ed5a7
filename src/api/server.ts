/** Serves the API app on [api]host_ip:[api]port, over HTTPS when [api]enable_ssl_api is set. */
import type { AddressInfo } from 'node:net';
import { createListener } from '../common/ssl-server';
import { createApiApp } from './app';
import type { ApiDeps } from './deps';
import { log } from '../common/log';

export interface ApiServer {
  url: string;
  close(): Promise<void>;
}

export async function startApiServer(deps: ApiDeps): Promise<ApiServer> {
  const app = createApiApp(deps);
  const ssl = deps.conf.bool('api', 'enable_ssl_api');
  const server = createListener(deps.conf, ssl, app.callback());
  server.keepAliveTimeout = 65000;
  const host = deps.conf.str('api', 'host_ip');
  const port = deps.conf.int('api', 'port');
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `${ssl ? 'https' : 'http'}://${shownHost}:${address.port}`;
  log.info(`ironic-api listening on ${url}`);
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
