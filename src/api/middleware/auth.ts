/**
 * `[DEFAULT]auth_strategy`, in front of the application as Ironic wraps its WSGI app:
 * AuthPublicRoutes lets `/`, `/v1`, `/v1/lookup`, `/v1/heartbeat/<node>` and `/v1/continue_inspection` through; everything
 * else meets keystonemiddleware's auth_token (`keystone`) or the htpasswd check (`http_basic`).
 * Rejections are written raw, as those WSGI middlewares answer before Ironic's hooks run (no
 * request id, no version headers).
 */
import type Koa from 'koa';
import type { Config } from '../../conf/config';
import type { ApiState } from '../state';
import type { Identity } from '../../auth/identity';
import { KeystoneTokenClient, KeystoneUnavailable, keystoneSettings } from '../../auth/keystone-client';
import { BasicAuthFailure, HtpasswdFile } from '../../auth/htpasswd';
import { createEnforcer, policyCreds, type Enforcer } from '../policy/enforcer';
import { log } from '../../common/log';

/** ironic/api/config.py acl_public_routes, matched like AuthPublicRoutes: `route(\.json|\.xml)?$` from the start. */
const PUBLIC_ROUTES = ['/', '/v1', '/v1/lookup', '/v1/heartbeat/[a-z0-9\\-]+', '/v1/continue_inspection']
  .map((route) => new RegExp(`^${route}(\\.json|\\.xml)?$`));

function isPublicRoute(path: string): boolean {
  const stripped = path.replace(/\/+$/, '') || path;
  return PUBLIC_ROUTES.some((re) => re.test(stripped));
}

type Ctx = Koa.ParameterizedContext<ApiState>;

function sendRaw(ctx: Ctx, status: number, headers: Record<string, string>, body: string): void {
  ctx.respond = false;
  const bytes = Buffer.from(body, 'utf8');
  ctx.res.writeHead(status, { ...headers, 'Content-Length': String(bytes.length) });
  ctx.res.end(bytes);
}

/** jsonutils.dumps of keystonemiddleware's error dict (Python's default separators). */
const KEYSTONE_UNAUTHORIZED_BODY =
  '{"error": {"code": 401, "title": "Unauthorized", "message": "The request you have made requires authentication."}}';

/** keystonemiddleware's rejection: webob HTTPUnauthorized with a JSON body and WWW-Authenticate. */
function rejectKeystone(ctx: Ctx, wwwAuthenticateUri: string): void {
  sendRaw(ctx, 401, {
    'Content-Type': 'application/json; charset=UTF-8',
    'WWW-Authenticate': `Keystone uri="${wwwAuthenticateUri}"`,
  }, KEYSTONE_UNAUTHORIZED_BODY);
}

/** webob's HTTPServiceUnavailable('The Keystone service is temporarily unavailable.'), per Accept. */
function keystoneUnavailableReply(accept: string): { type: string; body: string } {
  const explanation = 'The server is currently unavailable. Please try again at a later time.';
  const detail = 'The Keystone service is temporarily unavailable.';
  if (accept.includes('text/html') || accept.includes('*/*')) {
    return {
      type: 'text/html; charset=UTF-8',
      body: `<html>\n <head>\n  <title>503 Service Unavailable</title>\n </head>\n <body>\n  <h1>503 Service Unavailable</h1>\n  ${explanation}<br /><br />\n${detail}\n\n\n </body>\n</html>`,
    };
  }
  if (accept.includes('application/json')) {
    const message = JSON.stringify(`${explanation}<br /><br />\n${detail}\n\n`);
    return { type: 'application/json', body: `{"message": ${message}, "code": "503 Service Unavailable", "title": "Service Unavailable"}` };
  }
  return { type: 'text/plain; charset=UTF-8', body: `503 Service Unavailable\n\n${explanation}\n\n ${detail}  ` };
}

function keystoneAuth(conf: Config, client: KeystoneTokenClient, enforcer: Enforcer): Koa.Middleware<ApiState> {
  return async (ctx, next) => {
    const isPublicApi = isPublicRoute(ctx.path);
    if (isPublicApi) {
      // AuthPublicRoutes skips auth_token entirely: no validation, an anonymous context.
      ctx.state.auth = { identity: null, isPublicApi, enforcer, creds: publicCreds(true) };
      return next();
    }
    const token = ctx.get('X-Auth-Token');
    let identity: Identity | null = null;
    if (token) {
      try {
        identity = await client.validate(token);
      } catch (err) {
        if (!(err instanceof KeystoneUnavailable)) throw err;
        log.error(`Unable to validate token: ${err.message}`);
        const reply = keystoneUnavailableReply(ctx.get('Accept'));
        sendRaw(ctx, 503, { 'Content-Type': reply.type }, reply.body);
        return;
      }
    }
    if (!identity) {
      if (token) log.warning('Authorization failed for token');
      rejectKeystone(ctx, client.settings.wwwAuthenticateUri);
      return;
    }
    ctx.state.auth = { identity, isPublicApi, enforcer, creds: policyCreds(identity, conf, false) };
    await next();
  };
}

function publicCreds(isPublicApi: boolean): Record<string, unknown> {
  return { roles: [], project_id: null, system_scope: null, is_public_api: isPublicApi };
}

/** ironic_lib's BasicAuthMiddleware; its errors are `{"error": {"message", "code"}}`, compact JSON. */
function httpBasicAuth(file: HtpasswdFile): Koa.Middleware<ApiState> {
  return async (ctx, next) => {
    if (isPublicRoute(ctx.path)) return next();
    try {
      await file.authenticate(ctx.headers.authorization, ctx.req.socket.remoteAddress ?? '');
    } catch (err) {
      if (!(err instanceof BasicAuthFailure)) throw err;
      log.info(`HTTP basic authentication failed: ${err.message}`);
      sendRaw(ctx, err.code, { ...err.headers(), 'Content-Type': 'application/json' },
        JSON.stringify({ error: { message: err.message, code: err.code } }));
      return;
    }
    await next();
  };
}

/**
 * What `[DEFAULT]auth_strategy` selects: the middleware (noauth passes everything through) and the
 * checkers behind it, one per API process, so the dashboard's login and event stream share the
 * token cache, the htpasswd file's failure limiter and the policy enforcer with the API.
 */
export type ApiAuthentication =
  | { strategy: 'keystone'; middleware: Koa.Middleware<ApiState>; keystone: KeystoneTokenClient; enforcer: Enforcer }
  | { strategy: 'http_basic'; middleware: Koa.Middleware<ApiState>; htpasswd: HtpasswdFile }
  | { strategy: 'noauth'; middleware: Koa.Middleware<ApiState> };

export function authentication(conf: Config): ApiAuthentication {
  const strategy = conf.str('DEFAULT', 'auth_strategy');
  if (strategy === 'keystone') {
    const keystone = new KeystoneTokenClient(keystoneSettings(conf));
    const enforcer = createEnforcer(conf);
    return { strategy, middleware: keystoneAuth(conf, keystone, enforcer), keystone, enforcer };
  }
  if (strategy === 'http_basic') {
    const htpasswd = new HtpasswdFile(conf.str('DEFAULT', 'http_basic_auth_user_file'));
    return { strategy, middleware: httpBasicAuth(htpasswd), htpasswd };
  }
  return { strategy: 'noauth', middleware: (_ctx, next) => next() };
}
