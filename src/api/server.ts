/**
 * Serves the API app on [api]host_ip:[api]port, over HTTPS when [api]enable_ssl_api is set; noauth
 * only on loopback unless [api]allow_insecure_noauth.
 */
import { createListener, listenAt } from '../common/ssl-server';
import { createApiApp } from './app';
import type { ApiDeps } from './deps';
import { log } from '../common/log';
import { guardNoauthExposure } from '../auth/noauth-exposure';
import { answerParseErrors, limitRequestLine } from './request-line';

interface ApiServer {
  url: string;
  close(): Promise<void>;
}

export async function startApiServer(deps: ApiDeps): Promise<ApiServer> {
  const host = deps.conf.str('api', 'host_ip');
  guardNoauthExposure(deps.conf, { service: 'ironic-api', group: 'api', strategy: deps.conf.str('DEFAULT', 'auth_strategy'), host });
  const app = createApiApp(deps);
  const server = createListener(deps.conf, deps.conf.bool('api', 'enable_ssl_api'), limitRequestLine(app.callback()));
  answerParseErrors(server);
  server.keepAliveTimeout = 65000;
  const url = await listenAt(server, host, deps.conf.int('api', 'port'));
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
