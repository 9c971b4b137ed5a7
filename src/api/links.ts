/** Ironic's resource links: `self` under /v1 and `bookmark` without it, rooted at public_endpoint or the request's host. */
import type { ApiContext } from './state';

export interface Link {
  href: string;
  rel: string;
  type?: string;
}

export function baseUrl(ctx: ApiContext): string {
  const configured = ctx.state.deps.conf.optStr('api', 'public_endpoint');
  return (configured ?? `${ctx.protocol}://${ctx.host}`).replace(/\/+$/, '');
}

/** `resource` like 'nodes', `arg` like a uuid or 'uuid/states'; Ironic appends a bare slash when arg is ''. */
export function makeLink(base: string, rel: string, resource: string, arg: string, bookmark = false): Link {
  const prefix = bookmark ? '' : '/v1';
  return { href: `${base}${prefix}/${resource}/${arg}`, rel };
}

export function selfAndBookmark(base: string, resource: string, arg: string): Link[] {
  return [makeLink(base, 'self', resource, arg), makeLink(base, 'bookmark', resource, arg, true)];
}
