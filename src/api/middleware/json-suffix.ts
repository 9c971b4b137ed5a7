/**
 * Ironic's JsonExtensionMiddleware: a path ending in `.json` (trailing slashes aside) loses the
 * suffix when the request names a version below 1.91 in X-OpenStack-Ironic-API-Version, and the
 * lookups of a node by its path ident then also try the name with `.json` put back. Without the
 * header (or from 1.91) the path is left alone, so `.json` is part of a name.
 */
import type { Middleware } from 'koa';
import { V } from '../../common/microversions';
import type { ApiState } from '../state';

const SUFFIX = '.json';

/** The minor version the header names, as microversion_parse reads "1.N"; null otherwise. */
function requestedMinor(header: string | undefined): number | null {
  const m = /^\s*(\d+)\.(\d+)\s*$/.exec(header ?? '');
  return m ? Number(m[2]) : null;
}

export const stripJsonSuffix: Middleware<ApiState> = async (ctx, next) => {
  const path = ctx.path.replace(/\/+$/, '');
  ctx.state.jsonSuffix = false;
  if (path.endsWith(SUFFIX)) {
    const minor = requestedMinor(ctx.get('X-OpenStack-Ironic-API-Version'));
    if (minor && minor < V.JSON_SUFFIX_REMOVED) {
      ctx.path = path.slice(0, -SUFFIX.length) || '/';
      ctx.state.jsonSuffix = true;
    }
  }
  await next();
};
