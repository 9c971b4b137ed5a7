/**
 * /dashboard/api/v1/... runs the API's own Koa app (the same controllers, schemas and policies)
 * with the session's context in place of `[DEFAULT]auth_strategy`'s middleware: the app sees
 * /v1/..., and the caller is whoever logged in.
 */
import type * as http from 'node:http';
import type Koa from 'koa';
import { createApiApp } from '../api/app';
import type { ApiDeps } from '../api/deps';
import type { RequestAuth } from '../api/policy/scope';
import type { ApiState } from '../api/state';

export const API_PREFIX = '/dashboard/api';

export type ProxyHandler = (req: http.IncomingMessage, res: http.ServerResponse, auth: RequestAuth | undefined) => void;

export function apiProxy(deps: ApiDeps): ProxyHandler {
  const callers = new WeakMap<http.IncomingMessage, RequestAuth>();
  const fromSession: Koa.Middleware<ApiState> = (ctx, next) => {
    const auth = callers.get(ctx.req);
    if (auth) ctx.state.auth = auth;
    return next();
  };
  const callback = createApiApp(deps, fromSession).callback();
  return (req, res, auth) => {
    if (auth) callers.set(req, auth);
    req.url = (req.url ?? '/').slice(API_PREFIX.length) || '/';
    void callback(req, res);
  };
}
