/**
 * The Koa application: request ids, faults, unversioned-path rewriting, version negotiation, body
 * parsing, then one router per resource. Everything HTTP-shaped stays in src/api.
 */
import Koa from 'koa';
import Router from '@koa/router';
import type { ApiDeps } from './deps';
import type { ApiState } from './state';
import { requestId } from './middleware/request-id';
import { faults } from './middleware/faults';
import { jsonResponse } from './middleware/json-response';
import { negotiateVersion, rangeHeaders } from './middleware/version';
import { jsonBody } from './middleware/body';
import { rootRouter, v1IndexRouter } from './controllers/root';
import { RESOURCE_ROUTERS } from './controllers';
import { HttpError, httpMethodNotAllowed } from '../common/errors';

const VERSION_HEADERS = ['X-OpenStack-Ironic-API-Minimum-Version', 'X-OpenStack-Ironic-API-Maximum-Version', 'X-OpenStack-Ironic-API-Version'];

export function createApiApp(deps: ApiDeps): Koa<ApiState> {
  const app = new Koa<ApiState>();
  app.proxy = false;
  app.silent = true;
  app.use(requestId);
  app.use(jsonResponse);
  app.use(faults);
  app.use(async (ctx, next) => {
    ctx.state.deps = deps;
    await next();
  });
  app.use(rewriteUnversionedPaths);

  const root = rootRouter();
  app.use(async (ctx, next) => (ctx.path === '/' ? rangeHeaders(deps.maxMinor)(ctx, next) : next()));
  app.use(root.routes());

  const v1 = new Router<ApiState>();
  v1.use(negotiateVersion(deps.maxMinor));
  v1.use(jsonBody({
    general: deps.conf.int('api', 'max_json_body_size'),
    provision: deps.conf.int('api', 'max_json_body_size_provision'),
  }));
  for (const router of [v1IndexRouter(), ...RESOURCE_ROUTERS.map((make) => make())]) {
    v1.use(router.routes());
    v1.use(router.allowedMethods({ throw: true, methodNotAllowed: methodNotAllowed(router) }));
  }
  app.use(v1.routes());
  return app;
}

/** Ironic routes `/nodes` as `/v1/nodes`. */
async function rewriteUnversionedPaths(ctx: Koa.ParameterizedContext<ApiState>, next: Koa.Next): Promise<void> {
  if (ctx.path !== '/' && ctx.path !== '/v1' && !ctx.path.startsWith('/v1/')) ctx.path = `/v1${ctx.path}`;
  await next();
}

/** A 405 from routing carries no version headers, as webob raises it before Ironic's version hook. */
function methodNotAllowed(router: Router<ApiState>) {
  return (): HttpError => {
    const err = httpMethodNotAllowed([]);
    return new StrippingHttpError(err.code, err.title, err.description, router);
  };
}

class StrippingHttpError extends HttpError {
  constructor(code: number, title: string, description: string, router: Router<ApiState>) {
    super(code, title, description, { Allow: allowedFor(router) });
  }
  stripHeaders = VERSION_HEADERS;
}

function allowedFor(router: Router<ApiState>): string {
  const methods = new Set<string>();
  for (const layer of router.stack) for (const m of layer.methods) if (m !== 'HEAD') methods.add(m);
  return [...methods].sort().join(', ');
}
