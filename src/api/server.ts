/**
 * Serves the API app on [api]host_ip:[api]port, over HTTPS when [api]enable_ssl_api is set; noauth
 * only on loopback unless [api]allow_insecure_noauth. Beside /v1, the same listener serves the
 * dashboard and the event stream ([dashboard]enabled, src/dashboard/).
 */
import { createListener, listenAt } from '../common/ssl-server';
import { createApiApp } from './app';
import type { ApiDeps } from './deps';
import { log } from '../common/log';
import { guardNoauthExposure } from '../auth/noauth-exposure';
import { answerParseErrors, limitRequestLine } from './request-line';
import { authentication } from './middleware/auth';
import { createDashboard } from '../dashboard';

interface ApiServer {
  url: string;
  close(): Promise<void>;
}

export async function startApiServer(deps: ApiDeps): Promise<ApiServer> {
  const host = deps.conf.str('api', 'host_ip');
  guardNoauthExposure(deps.conf, { service: 'ironic-api', group: 'api', strategy: deps.conf.str('DEFAULT', 'auth_strategy'), host });
  const auth = authentication(deps.conf);
  const api = createApiApp(deps, auth.middleware).callback();
  const dashboard = deps.conf.bool('dashboard', 'enabled') ? createDashboard(deps, auth) : null;
  const server = createListener(deps.conf, deps.conf.bool('api', 'enable_ssl_api'), limitRequestLine(dashboard ? dashboard.wrap(api) : api));
  if (dashboard) server.on('upgrade', (req, socket, head) => dashboard.upgrade(req, socket, head as Buffer));
  answerParseErrors(server);
  server.keepAliveTimeout = 65000;
  const url = await listenAt(server, host, deps.conf.int('api', 'port'));
  log.info(`ironic-api listening on ${url}`);
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        dashboard?.close();
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
