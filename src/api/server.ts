/** Serves the API app on [api]host_ip:[api]port, over HTTPS when [api]enable_ssl_api is set. */
import { createListener, listenAt } from '../common/ssl-server';
import { createApiApp } from './app';
import type { ApiDeps } from './deps';
import { log } from '../common/log';

export interface ApiServer {
  url: string;
  close(): Promise<void>;
}

export async function startApiServer(deps: ApiDeps): Promise<ApiServer> {
  const app = createApiApp(deps);
  const server = createListener(deps.conf, deps.conf.bool('api', 'enable_ssl_api'), app.callback());
  server.keepAliveTimeout = 65000;
  const url = await listenAt(server, deps.conf.str('api', 'host_ip'), deps.conf.int('api', 'port'));
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
