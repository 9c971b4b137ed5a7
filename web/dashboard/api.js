// The app's one way to the server: the session endpoints and the /v1 proxy under /dashboard/api.
// Every request is same-origin with the session cookie; writes carry the session's CSRF token.

const API_VERSION = '1.96';
let csrfToken = null;

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function errorOf(res) {
  const text = await res.text();
  let message = `${res.status} ${res.statusText}`;
  try {
    const body = JSON.parse(text);
    const fault = body.error_message ?? body.error ?? null;
    if (typeof fault === 'string') {
      try {
        message = JSON.parse(fault).faultstring ?? fault;
      } catch {
        message = fault;
      }
    } else if (fault && typeof fault.faultstring === 'string') {
      message = fault.faultstring;
    }
  } catch {
    if (text) message = text.slice(0, 300);
  }
  return new ApiError(res.status, message);
}

async function call(method, url, body) {
  const headers = { Accept: 'application/json' };
  if (url.startsWith('/dashboard/api/v1')) headers['X-OpenStack-Ironic-API-Version'] = API_VERSION;
  if (method !== 'GET' && method !== 'HEAD' && csrfToken) headers['X-CSRF-Token'] = csrfToken;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(url, {
    method, headers, credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status === 401) onUnauthorized();
  if (!res.ok) throw await errorOf(res);
  if (res.status === 204 || res.status === 202 && res.headers.get('Content-Length') === '0') return null;
  const text = await res.text();
  return text ? JSON.parse(text) : null;
}

let unauthorizedHandler = () => {};
function onUnauthorized() {
  unauthorizedHandler();
}
export function whenUnauthorized(fn) {
  unauthorizedHandler = fn;
}

/** The current session, or null when there is none. */
export async function currentSession() {
  const res = await fetch('/dashboard/session', { credentials: 'same-origin', headers: { Accept: 'application/json' } });
  if (res.status === 401) return null;
  if (!res.ok) throw await errorOf(res);
  const session = await res.json();
  csrfToken = session.csrf_token;
  return session;
}

export async function logIn(username, password, project) {
  const body = { username, password };
  if (project) body.project = project;
  const session = await call('POST', '/dashboard/session', body);
  csrfToken = session.csrf_token;
  return session;
}

export async function logOut() {
  await call('DELETE', '/dashboard/session');
  csrfToken = null;
}

/** GET /v1/<path> through the proxy. */
export const v1 = (path) => call('GET', `/dashboard/api/v1/${path}`);
export const v1Put = (path, body) => call('PUT', `/dashboard/api/v1/${path}`, body);
export const v1Delete = (path) => call('DELETE', `/dashboard/api/v1/${path}`);
export const stateMachine = () => call('GET', '/dashboard/api/state-machine');

/**
 * Pages through a collection with limit/marker, handing each page to `onPage` as it arrives, so
 * the first page can paint before the rest is in.
 */
export async function pageThrough(collection, query, limits, onPage) {
  let marker = null;
  for (let n = 0; ; n++) {
    const params = new URLSearchParams(query);
    params.set('limit', String(limits[Math.min(n, limits.length - 1)]));
    if (marker) params.set('marker', marker);
    const page = await v1(`${collection}?${params}`);
    const items = page[collection.split('/')[0]] ?? [];
    onPage(items);
    if (!page.next || items.length === 0) return;
    marker = items[items.length - 1].uuid;
  }
}

export const enc = encodeURIComponent;
