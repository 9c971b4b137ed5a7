/**
 * Pecan's attribute routes under /v1/nodes: NodesController's states, management, maintenance and
 * vendor_passthru are plain attributes, so a path that starts with one of them reaches the same
 * controller with the node as a positional argument (/v1/nodes/states/power/{node} is
 * /v1/nodes/{node}/states/power). Such paths are rewritten to their usual form before the policy
 * step and the routers, which then treat both forms alike.
 */
import type { Middleware } from 'koa';
import type { ApiState } from '../state';

/** [attribute path, node segment, what follows it]: the node comes after the attribute path. */
const ATTRIBUTE_PATHS: readonly RegExp[] = [
  /^\/v1\/nodes\/(states(?:\/(?:console|power|provision|raid|boot_mode|secure_boot))?)\/([^/]+)()$/,
  /^\/v1\/nodes\/(management(?:\/boot_device|\/inject_nmi)?|maintenance)\/([^/]+)()$/,
  // IndicatorController.get_one(node_ident, indicator): the node first, then the indicator.
  /^\/v1\/nodes\/(management\/indicators)\/([^/]+)(\/[^/]+)$/,
  // NodeVendorPassthruController._default(node_ident, method): /vendor_passthru/methods/{x} names node "methods".
  /^\/v1\/nodes\/(vendor_passthru)\/([^/]+)((?:\/[^/]+)?)$/,
];

/** The usual form of an attribute route's path; the path itself when it is none. */
function canonicalNodePath(path: string): string {
  for (const re of ATTRIBUTE_PATHS) {
    const m = re.exec(path);
    if (m) return `/v1/nodes/${m[2]}/${m[1]}${m[3]}`;
  }
  return path;
}

export const rewriteAttributeRoutes: Middleware<ApiState> = async (ctx, next) => {
  const path = canonicalNodePath(ctx.path);
  if (path !== ctx.path) ctx.path = path;
  await next();
};
