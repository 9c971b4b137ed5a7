/** A tiny JSON client for one Ironic endpoint (reference or ironic-ts), used to fill and to read it. */

export class ApiCallError extends Error {
  constructor(readonly method: string, readonly path: string, readonly status: number, readonly body: string) {
    super(`${method} ${path} -> ${status}: ${body.slice(0, 500)}`);
    this.name = 'ApiCallError';
  }
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  bodyText: string;
}

export const LATEST = '1.82';

/** Ironic 29.0.5's newest version, for what 2025.1 added. */
export const LATEST_2025 = '1.96';

export async function call(base: string, method: string, path: string, body?: unknown, version: string | null = LATEST): Promise<RawAnswer> {
  const headers: Record<string, string> = {};
  if (version !== null) headers['X-OpenStack-Ironic-API-Version'] = version;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const out: Record<string, string> = {};
  res.headers.forEach((v, k) => { out[k.toLowerCase()] = v; });
  return { status: res.status, headers: out, bodyText: await res.text() };
}

/** Calls and insists on a 2xx answer; returns the parsed body (or null when empty). */
export async function ok(base: string, method: string, path: string, body?: unknown, version: string = LATEST): Promise<Record<string, unknown>> {
  const res = await call(base, method, path, body, version);
  if (res.status < 200 || res.status > 299) throw new ApiCallError(method, path, res.status, res.bodyText);
  return res.bodyText === '' ? {} : JSON.parse(res.bodyText) as Record<string, unknown>;
}

/** Polls a node until its provision_state is `state` (provisioning is asynchronous in both servers). */
export async function waitProvisionState(base: string, uuid: string, state: string, timeoutMs = 60000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    const node = await ok(base, 'GET', `/v1/nodes/${uuid}`);
    last = `${String(node.provision_state)} (target ${String(node.target_provision_state)}, last_error ${String(node.last_error)})`;
    if (node.provision_state === state && node.target_provision_state === null) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`node ${uuid} did not reach ${state}; last seen ${last}`);
}
