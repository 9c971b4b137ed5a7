/**
 * What pecan's RestController answers for verbs a resource does not route: 405 with the controller's
 * Allow list (webob-shaped, before Ironic's hooks add version headers or a request id), and for the
 * CRUD controllers the quirks of its argument binding (DELETE/PATCH on the collection miss the id,
 * POST on an item binds the id as the body). Each registered path must also be listed in
 * src/api/openapi/endpoints.ts METHOD_NOT_ALLOWED_PATHS (the api-ref test enumerates router routes).
 */
import type Router from '@koa/router';
import { HttpError, InvalidParameterValue } from '../../common/errors';
import { pyRepr } from '../../common/pyrepr';
import type { ApiContext, ApiState } from '../state';

const ROUTING_HEADERS = ['X-OpenStack-Ironic-API-Minimum-Version', 'X-OpenStack-Ironic-API-Maximum-Version',
  'X-OpenStack-Ironic-API-Version', 'Openstack-Request-Id', 'X-Openstack-Request-Id'];

class MethodNotAllowed extends HttpError {
  stripHeaders = ROUTING_HEADERS;
  constructor(allow: readonly string[]) {
    super(405, 'Method Not Allowed', '', { Allow: allow.join(', ') });
  }
}

const VERBS = ['get', 'post', 'put', 'patch', 'delete'] as const;
type Verb = typeof VERBS[number];

/** Registers 405 answers on `path` for every verb not in `allowed` (call after the real routes). */
export function refuseOtherVerbs(router: Router<ApiState>, path: string, allowed: readonly Verb[],
  guard?: (ctx: ApiContext) => void): void {
  const allowHeader = allowed.map((v) => v.toUpperCase()).sort();
  for (const verb of VERBS) {
    if (allowed.includes(verb)) continue;
    router[verb](path, (ctx) => {
      guard?.(ctx);
      throw new MethodNotAllowed(allowHeader);
    });
  }
}

const CRUD_ALLOW = ['DELETE', 'GET', 'PATCH', 'POST'];

/**
 * The CRUD controller shape: `collection` (GET, POST) and `collection/:ident` (GET, PATCH, DELETE).
 * `idArg` names the item argument, `bodyArg` the POST body argument, as in Ironic's messages.
 */
export function crudVerbRules(router: Router<ApiState>, collection: string, idArg: string, bodyArg: string,
  guard?: (ctx: ApiContext) => void): void {
  const missing = (ctx: ApiContext): never => {
    guard?.(ctx);
    throw new InvalidParameterValue(`Missing mandatory parameter: ${idArg}`);
  };
  router.put(collection, () => { throw new MethodNotAllowed(CRUD_ALLOW); });
  router.patch(collection, missing);
  router.delete(collection, missing);
  router.put(`${collection}/:ident`, () => { throw new MethodNotAllowed(CRUD_ALLOW); });
  router.post(`${collection}/:ident`, (ctx) => {
    guard?.(ctx);
    throw new InvalidParameterValue(`Schema error for ${bodyArg}: ${pyRepr(ctx.params.ident)} is not of type 'object'`);
  });
}
