/**
 * The Koa application: request ids, faults, unversioned-path rewriting, version negotiation, body
 * parsing, then one router per resource. Everything HTTP-shaped stays in src/api.
 */
import Koa from 'koa';
import Router from '@koa/router';
import type { ApiDeps } from './deps';
import type { ApiState } from './state';
import { requestId } from './middleware/request-id';
import { requestMetrics } from './middleware/metrics';
import { faults } from './middleware/faults';
import { jsonResponse } from './middleware/json-response';
import { negotiateVersion } from './middleware/version';
import { jsonBody } from './middleware/body';
import { stripJsonSuffix } from './middleware/json-suffix';
import { rewriteAttributeRoutes } from './middleware/attribute-routes';
import { rootRouter, v1IndexRouter } from './controllers/root';
import { RESOURCE_ROUTERS } from './controllers';
import { httpMethodNotAllowed } from '../common/errors';
import { enforcePolicy } from './policy/enforce';

/**
 * `authenticate` is the API's `[DEFAULT]auth_strategy` middleware; the dashboard's proxy builds
 * the same app with one that takes the caller from its session.
 */
export function createApiApp(deps: ApiDeps, authenticate: Koa.Middleware<ApiState>): Koa<ApiState> {
  const app = new Koa<ApiState>();
  app.proxy = false;
  app.silent = true;
  app.use(answerOptions);
  // Ironic wraps its whole app in the auth middleware: rejections come before any of its hooks.
  app.use(authenticate);
  app.use(requestId);
  app.use(requestMetrics);
  app.use(jsonResponse);
  app.use(faults);
  app.use(async (ctx, next) => {
    ctx.state.deps = deps;
    await next();
  });
  app.use(stripJsonSuffix);
  app.use(rewriteUnversionedPaths);
  app.use(rewriteAttributeRoutes);

  app.use(onlyRootOrV1(negotiateVersion(deps.maxMinor)));
  app.use(rootRouter().routes());
  app.use(onlyV1(jsonBody({
    general: deps.conf.int('api', 'max_json_body_size'),
    provision: deps.conf.int('api', 'max_json_body_size_provision'),
  })));
  app.use(onlyV1(enforcePolicy));

  const v1 = new Router<ApiState>();
  for (const router of [v1IndexRouter(), ...RESOURCE_ROUTERS.map((make) => make())]) v1.use(router.routes());
  const allow = controllerMethods(v1);
  app.use(async (ctx, next) => {
    await next();
    if (ctx.status === 405 && !ctx.body) throw httpMethodNotAllowed(allow(ctx.path));
  });
  app.use(v1.routes());
  app.use(v1.allowedMethods());
  return app;
}

function onlyRootOrV1(middleware: Koa.Middleware<ApiState>): Koa.Middleware<ApiState> {
  return (ctx, next) => (ctx.path === '/' ? middleware(ctx, next) : onlyV1(middleware)(ctx, next));
}

function onlyV1(middleware: Koa.Middleware<ApiState>): Koa.Middleware<ApiState> {
  return (ctx, next) => (ctx.path === '/v1' || ctx.path.startsWith('/v1/') ? middleware(ctx, next) : next());
}

/**
 * Ironic's 405 lists every method of the path's controller, i.e. of the resource's collection and
 * item routes together (`/v1/nodes` → DELETE, GET, PATCH, POST).
 */
function controllerMethods(router: Router<ApiState>): (path: string) => string[] {
  const byResource = new Map<string, Set<string>>();
  for (const layer of router.stack) {
    const parts = String(layer.path).split('/').filter(Boolean);
    if (parts.length > 3) continue;
    const resource = parts.slice(0, 2).join('/');
    const methods = byResource.get(resource) ?? new Set<string>();
    for (const m of layer.methods) if (m !== 'HEAD') methods.add(m);
    byResource.set(resource, methods);
  }
  return (path) => [...(byResource.get(path.split('/').filter(Boolean).slice(0, 2).join('/')) ?? [])].sort();
}

/** Ironic's WSGI stack answers OPTIONS itself: 200, empty, before any of its own headers. */
async function answerOptions(ctx: Koa.ParameterizedContext<ApiState>, next: Koa.Next): Promise<void> {
  if (ctx.method !== 'OPTIONS') return next();
  ctx.respond = false;
  ctx.res.writeHead(200, { 'Content-Length': '0' });
  ctx.res.end();
}

/** Ironic routes `/nodes` as `/v1/nodes`. */
async function rewriteUnversionedPaths(ctx: Koa.ParameterizedContext<ApiState>, next: Koa.Next): Promise<void> {
  if (ctx.path !== '/' && ctx.path !== '/v1' && !ctx.path.startsWith('/v1/')) ctx.path = `/v1${ctx.path}`;
  await next();
}
