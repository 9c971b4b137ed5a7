// Small constructors so the case files read like request logs. They only build data.
import type { HttpMethod, RequestCase, WaitForCase } from '../types';

export const MAX = '1.82';

type Extra = Partial<Omit<RequestCase, 'name' | 'method' | 'path' | 'version' | 'body'>>;

function req(method: HttpMethod, name: string, path: string, version: string | undefined, body: unknown, extra: Extra): RequestCase {
  const c: RequestCase = { name, method, path, ...extra };
  if (version !== undefined) c.version = version;
  if (body !== undefined) c.body = body;
  return c;
}

export const get = (name: string, path: string, version?: string, extra: Extra = {}): RequestCase =>
  req('GET', name, path, version, undefined, extra);
export const post = (name: string, path: string, version: string | undefined, body: unknown, extra: Extra = {}): RequestCase =>
  req('POST', name, path, version, body, extra);
export const put = (name: string, path: string, version: string | undefined, body: unknown, extra: Extra = {}): RequestCase =>
  req('PUT', name, path, version, body, extra);
export const patch = (name: string, path: string, version: string | undefined, body: unknown, extra: Extra = {}): RequestCase =>
  req('PATCH', name, path, version, body, extra);
export const del = (name: string, path: string, version?: string, extra: Extra = {}): RequestCase =>
  req('DELETE', name, path, version, undefined, extra);
/** A DELETE carrying a JSON body, which pecan merges into the handler's arguments. */
export const delBody = (name: string, path: string, version: string | undefined, body: unknown, extra: Extra = {}): RequestCase =>
  req('DELETE', name, path, version, body, extra);
export const raw = (method: HttpMethod, name: string, path: string, version: string | undefined, rawBody: string, extra: Extra = {}): RequestCase =>
  req(method, name, path, version, undefined, { ...extra, rawBody });

/** Poll a node until it has settled in one of the given provision states with no target state left. */
export function settle(name: string, node: string, states: ReadonlyArray<string | null>): WaitForCase {
  return {
    kind: 'waitFor',
    name,
    path: `/v1/nodes/${node}`,
    version: MAX,
    until: { provision_state: states, target_provision_state: [null], target_power_state: [null], reservation: [null] },
  };
}

/** Poll a node until its power state is one of the given ones and no power change is pending. */
export function settlePower(name: string, node: string, states: ReadonlyArray<string | null>): WaitForCase {
  return { kind: 'waitFor', name, path: `/v1/nodes/${node}`, version: MAX, until: { power_state: states, target_power_state: [null], reservation: [null] } };
}

export const op = (o: string, path: string, value?: unknown): Record<string, unknown> =>
  value === undefined ? { op: o, path } : { op: o, path, value };
