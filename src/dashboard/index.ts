/**
 * The dashboard and the event stream, served by the API process beside /v1:
 *   /dashboard/            the built app (web/dashboard/) and the vendor allow-list, public (it holds no data)
 *   /dashboard/session     login, who am I, logout
 *   /dashboard/api/v1/...  the API itself with the session's context (CSRF token on every non-GET)
 *   /dashboard/api/events/nodes, /events/nodes   node events (session, or the API's own token or basic auth)
 *   /dashboard/api/state-machine                 the provision state machine (conductor/fsm.ts) for the app
 *   /dashboard/console/<node>                    the serial console WebSocket (console-relay.ts)
 * Every answer carries the security headers (headers.ts).
 */
import type * as http from 'node:http';
import type { Duplex } from 'node:stream';
import Koa from 'koa';
import type { ApiDeps } from '../api/deps';
import type { ApiAuthentication } from '../api/middleware/auth';
import type { ApiState } from '../api/state';
import type { RequestAuth } from '../api/policy/scope';
import { log } from '../common/log';
import { KeystoneUnavailable } from '../auth/keystone-client';
import { sendError, sendJson, setSecurityHeaders } from './headers';
import { serveStatic } from './static-files';
import { SessionStore, sameSecret, sessionCookie, type Session } from './sessions';
import { loginFor } from './login';
import { login, logout, sessionBody, type SessionRoutes } from './session-routes';
import { sessionRequestAuth } from './session-auth';
import { API_PREFIX, apiProxy, type ProxyHandler } from './api-proxy';
import { EventHub } from './event-hub';
import { StreamLimits } from './stream-limits';
import { openEventStream, type StreamSettings } from './event-stream';
import { ConsoleRelay } from './console-relay';
import { stateMachineJson } from './state-machine';

interface Dashboard {
  /** Serves dashboard paths, hands everything else to `api`. */
  wrap(api: AppHandler): AppHandler;
  /** The server's `upgrade` event: console WebSockets; anything else is refused. */
  upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): void;
}

type AppHandler = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;

const SAFE_METHODS = new Set(['GET', 'HEAD']);

function pathOf(req: http.IncomingMessage): string {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

function isDashboardPath(path: string): boolean {
  return path === '/dashboard' || path.startsWith('/dashboard/') || path === '/events' || path.startsWith('/events/');
}

class DashboardServer implements Dashboard {
  private readonly sessions: SessionRoutes;
  private readonly proxy: ProxyHandler;
  private readonly stream: StreamSettings;
  private readonly events: AppHandler;
  private readonly console: ConsoleRelay;

  constructor(private readonly deps: ApiDeps, private readonly auth: ApiAuthentication) {
    const conf = deps.conf;
    this.sessions = {
      store: new SessionStore({
        idleMs: conf.int('dashboard', 'session_idle_timeout') * 1000,
        maxAgeMs: conf.int('dashboard', 'session_max_age') * 1000,
        maxSessions: conf.int('dashboard', 'max_sessions'),
      }),
      login: loginFor(auth),
      secure: conf.bool('api', 'enable_ssl_api'),
    };
    this.proxy = apiProxy(deps);
    this.stream = {
      hub: new EventHub(deps.db, {
        pollMs: conf.int('dashboard', 'event_poll_interval_ms'),
        flushMs: conf.int('dashboard', 'event_flush_interval_ms'),
        slackMs: conf.int('dashboard', 'event_feed_slack') * 1000,
        resyncMs: conf.int('dashboard', 'event_resync_interval') * 1000,
        heartbeatMs: conf.int('dashboard', 'event_heartbeat_interval') * 1000,
      }),
      limits: new StreamLimits(conf.int('dashboard', 'event_max_streams_per_user'), conf.int('dashboard', 'event_max_streams_per_address')),
      bufferBytes: conf.int('dashboard', 'event_client_buffer_bytes'),
    };
    this.events = this.tokenAuthenticatedEvents();
    this.console = new ConsoleRelay(deps, conf.int('dashboard', 'console_max_clients_per_node'));
  }

  wrap(api: AppHandler): AppHandler {
    return async (req, res) => {
      const path = pathOf(req);
      if (!isDashboardPath(path)) return api(req, res);
      setSecurityHeaders(res);
      await this.route(req, res, path).catch((err: unknown) => {
        if (err instanceof KeystoneUnavailable) {
          log.error(`Dashboard request ${req.method ?? ''} ${path}: ${err.message}`);
          if (!res.headersSent) sendError(res, 503, 'The Keystone service is temporarily unavailable.');
          return;
        }
        log.error(`Dashboard request ${req.method ?? ''} ${path} failed: ${(err as Error).stack ?? String(err)}`);
        if (!res.headersSent) sendError(res, 500, 'Internal error');
        else res.destroy();
      });
    };
  }

  upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    const path = pathOf(req);
    this.sessionWithAuth(req).then(({ session, auth }) => this.console.upgrade(req, socket, head, path, session, auth), (err: unknown) => {
      log.error(`Dashboard console handshake failed: ${(err as Error).message}`);
      socket.destroy();
    });
  }

  /** The request's session and its API context; no session when Keystone no longer accepts its token. */
  private async sessionWithAuth(req: http.IncomingMessage): Promise<{ session: Session | null; auth: RequestAuth | undefined }> {
    const session = this.sessions.store.get(sessionCookie(req.headers.cookie));
    if (!session) return { session: null, auth: undefined };
    const auth = await sessionRequestAuth(this.auth, this.deps.conf, session);
    if (auth === null) {
      this.sessions.store.delete(session.id);
      return { session: null, auth: undefined };
    }
    return { session, auth };
  }

  close(): void {
    this.stream.hub.close();
    this.console.close();
  }

  private async route(req: http.IncomingMessage, res: http.ServerResponse, path: string): Promise<void> {
    if (path === '/dashboard') {
      res.writeHead(301, { Location: '/dashboard/', 'Content-Length': '0' });
      res.end();
      return;
    }
    if (path === '/events/nodes') return this.events(req, res);
    if (path.startsWith('/events')) return sendError(res, 404, 'Not found');
    if (path === '/dashboard/session') return this.session(req, res);
    if (path === API_PREFIX || path.startsWith(`${API_PREFIX}/`)) return this.sessionApi(req, res, path);
    if (path.startsWith('/dashboard/console/')) return sendError(res, 426, 'The console is a WebSocket', { Upgrade: 'websocket' });
    return serveStatic(req, res, path.slice('/dashboard/'.length));
  }

  private async session(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (req.method === 'POST') return login(req, res, this.sessions);
    const { session } = await this.sessionWithAuth(req);
    if (!this.checkSession(req, res, session)) return;
    if (req.method === 'GET' || req.method === 'HEAD') return sendJson(res, 200, sessionBody(session));
    if (req.method === 'DELETE') return logout(res, this.sessions, session);
    sendError(res, 405, 'Method not allowed', { Allow: 'DELETE, GET, HEAD, POST' });
  }

  /** /dashboard/api/...: a session, and its CSRF token on anything but GET and HEAD. */
  private async sessionApi(req: http.IncomingMessage, res: http.ServerResponse, path: string): Promise<void> {
    const { session, auth } = await this.sessionWithAuth(req);
    if (!this.checkSession(req, res, session)) return;
    if (path === `${API_PREFIX}/events/nodes`) return openEventStream(req, res, auth, userKey(session), this.stream);
    if (path === `${API_PREFIX}/state-machine`) return sendState(req, res);
    if (path !== `${API_PREFIX}/v1` && !path.startsWith(`${API_PREFIX}/v1/`)) return sendError(res, 404, 'Not found');
    this.proxy(req, res, auth);
  }

  /** A live session, with its CSRF token on unsafe methods; else answers 401 or 403 and returns false. */
  private checkSession(req: http.IncomingMessage, res: http.ServerResponse, session: Session | null): session is Session {
    if (!session) {
      sendError(res, 401, 'Authentication required');
      return false;
    }
    if (!SAFE_METHODS.has(req.method ?? '')) {
      const presented = req.headers['x-csrf-token'];
      if (typeof presented !== 'string' || !sameSecret(presented, session.csrfToken)) {
        sendError(res, 403, 'Missing or wrong X-CSRF-Token');
        return false;
      }
    }
    return true;
  }

  /**
   * /events/nodes outside the dashboard: a session cookie if one is sent, else the API's own
   * `[DEFAULT]auth_strategy` middleware (token or basic auth, its 401 answers and its limiter).
   */
  private tokenAuthenticatedEvents(): AppHandler {
    const app = new Koa<ApiState>();
    app.silent = true;
    app.use(async (ctx, next) => {
      const { session, auth } = await this.sessionWithAuth(ctx.req);
      if (!session) return next();
      ctx.respond = false;
      await openEventStream(ctx.req, ctx.res, auth, userKey(session), this.stream);
    });
    app.use(this.auth.middleware);
    app.use(async (ctx) => {
      ctx.respond = false;
      await openEventStream(ctx.req, ctx.res, ctx.state.auth, apiUserKey(ctx.req, ctx.state.auth), this.stream);
    });
    return app.callback();
  }
}

function sendState(req: http.IncomingMessage, res: http.ServerResponse): void {
  if (!SAFE_METHODS.has(req.method ?? '')) return sendError(res, 405, 'Method not allowed', { Allow: 'GET, HEAD' });
  const text = stateMachineJson();
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(text)), 'Cache-Control': 'no-cache' });
  res.end(req.method === 'HEAD' ? undefined : text);
}

function userKey(session: Session): string {
  return `user:${session.identity?.userId ?? session.user}`;
}

/** The caller the API authenticated: its Keystone user, or the basic-auth user name; null under noauth. */
function apiUserKey(req: http.IncomingMessage, auth: RequestAuth | undefined): string | null {
  if (auth?.identity?.userId) return `user:${auth.identity.userId}`;
  const header = req.headers.authorization;
  if (!header?.toLowerCase().startsWith('basic ')) return null;
  const pair = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  return `user:${pair.slice(0, Math.max(0, pair.indexOf(':')))}`;
}

export function createDashboard(deps: ApiDeps, auth: ApiAuthentication): Dashboard {
  return new DashboardServer(deps, auth);
}
