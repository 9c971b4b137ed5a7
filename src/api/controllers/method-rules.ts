/**
 * What pecan's RestController answers for verbs a resource does not route: 405 with the controller's
 * Allow list (webob-shaped, before Ironic's hooks add version headers or a request id). Each path
 * registered here must also be listed in src/api/openapi/endpoints.ts METHOD_NOT_ALLOWED_PATHS
 * (the api-ref test enumerates router routes).
 */
import type Router from '@koa/router';
import { HttpError } from '../../common/errors';
import type { ApiContext, ApiState } from '../state';

const ROUTING_HEADERS = ['X-OpenStack-Ironic-API-Minimum-Version', 'X-OpenStack-Ironic-API-Maximum-Version',
  'X-OpenStack-Ironic-API-Version', 'Openstack-Request-Id', 'X-Openstack-Request-Id'];

class MethodNotAllowed extends HttpError {
  stripHeaders = ROUTING_HEADERS;
  constructor(allow: readonly string[]) {
    super(405, 'Method Not Allowed', '', { Allow: allow.join(', ') });
  }
}

/** The 405 a RestController answers for a path below one of its actions (e.g. /children/{x}). */
export function methodNotAllowed(allow: readonly string[]): HttpError {
  return new MethodNotAllowed(allow);
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
