// A small path-template router for the emulator: "/redfish/v1/Systems/:id" style templates,
// 404 for unknown paths and 405 (with Allow) for known paths hit with another method.

import { IncomingHttpHeaders } from 'node:http';
import { RedfishObject } from './messages';

export const METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] as const;
export type Method = (typeof METHODS)[number];

export interface RequestCtx {
  method: Method;
  path: string;
  params: Record<string, string>;
  body: RedfishObject | null;
  headers: IncomingHttpHeaders;
}

export interface Reply {
  status: number;
  body?: RedfishObject;
  headers?: Record<string, string>;
}

type Handler = (ctx: RequestCtx) => Reply;

interface Route {
  template: string;
  handlers: Partial<Record<Method, Handler>>;
  /** Methods that need no credentials (the service root, session login). */
  anonymous?: Method[];
}

export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

export class Router {
  private readonly routes: { segments: string[]; route: Route }[] = [];

  add(route: Route): void {
    this.routes.push({ segments: splitPath(route.template), route });
  }

  match(path: string): RouteMatch | null {
    const parts = splitPath(path);
    for (const { segments, route } of this.routes) {
      const params = matchSegments(segments, parts);
      if (params) return { route, params };
    }
    return null;
  }
}

export function allowedMethods(route: Route): Method[] {
  return METHODS.filter((m) => route.handlers[m] !== undefined);
}

/** Path without query and trailing slashes; "/redfish/v1/" and "/redfish/v1" are the same resource. */
export function normalisePath(rawUrl: string): string {
  const path = rawUrl.split('?')[0].split('#')[0];
  const trimmed = path.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

function splitPath(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

function matchSegments(template: string[], parts: string[]): Record<string, string> | null {
  if (template.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < template.length; i++) {
    const t = template[i];
    if (t.startsWith(':')) {
      let value: string;
      try {
        value = decodeURIComponent(parts[i]);
      } catch {
        return null;
      }
      params[t.slice(1)] = value;
    } else if (t !== parts[i]) {
      return null;
    }
  }
  return params;
}
