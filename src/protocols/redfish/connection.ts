// An authenticated, bounded, retrying channel to one BMC's Redfish service. Retries follow Ironic's
// redfish_connection_attempts / redfish_retry_interval; each exchange has a deadline and a size cap.

import http from 'node:http';
import { RedfishEndpoint, parseRedfishAddress } from './address';
import { AuthMode, AuthType, RedfishAuth } from './auth';
import { RedfishConfigError, RedfishConnectionError, RedfishInvalidResponseError, RedfishPreconditionError, RedfishTlsError } from './errors';
import { RedfishObject, stringField } from './json';
import { RedfishResponse, requireJson, toRedfishResponse } from './responses';
import { VerifyCa, buildAgent } from './tls';
import { HttpReply, exchange } from './transport';
import { setTimeout as sleep } from 'node:timers/promises';

export interface RedfishConnectionOptions {
  /** redfish_address: host, host:port, http(s)://host[:port][/root/prefix]. */
  address: string;
  username?: string | null;
  password?: string | null;
  /** redfish_auth_type; default "auto". */
  authType?: AuthType;
  /** redfish_verify_ca: boolean, "true"/"false", or a CA bundle file/directory. Default true. */
  verifyCa?: VerifyCa;
  /** redfish_connection_attempts; default 5. */
  connectionAttempts?: number;
  /** redfish_retry_interval in milliseconds; default 4000. */
  retryIntervalMs?: number;
  /** Deadline of a single HTTP exchange; default 60000. */
  timeoutMs?: number;
  /** Cap on a response body; default 16 MiB. */
  maxResponseBytes?: number;
}

const IDEMPOTENT = new Set(['GET', 'PUT', 'PATCH', 'DELETE']);

export class RedfishConnection {
  readonly endpoint: RedfishEndpoint;
  private readonly agent: http.Agent;
  private readonly auth: RedfishAuth;
  private readonly attempts: number;
  private readonly retryIntervalMs: number;
  private readonly timeoutMs: number;
  private readonly maxResponseBytes: number;

  constructor(options: RedfishConnectionOptions) {
    this.endpoint = parseRedfishAddress(options.address);
    this.attempts = positiveInt(options.connectionAttempts ?? 5, 'connectionAttempts');
    this.retryIntervalMs = Math.max(0, options.retryIntervalMs ?? 4000);
    this.timeoutMs = positiveInt(options.timeoutMs ?? 60_000, 'timeoutMs');
    this.maxResponseBytes = positiveInt(options.maxResponseBytes ?? 16 * 1024 * 1024, 'maxResponseBytes');
    this.auth = new RedfishAuth(options.authType ?? 'auto', options.username ?? null, options.password ?? '', {
      endpoint: this.endpoint,
      resolve: (path) => this.resolve(path),
      send: (method, url, body, headers) => this.sendWithRetries(method, url, body, headers, false),
    });
    this.agent = buildAgent(this.endpoint.protocol, options.verifyCa ?? true);
  }

  /** How requests are currently authenticated; null before the first request. */
  get authMode(): AuthMode | null {
    return this.auth.mode;
  }

  /** GET a resource that must be a JSON object. */
  async get(path: string): Promise<RedfishObject> {
    return requireJson(await this.request('GET', path));
  }

  async request(method: string, path: string, body?: RedfishObject | null, headers: Record<string, string> = {}): Promise<RedfishResponse> {
    const url = this.resolve(path);
    await this.auth.ensure();
    let usedToken = this.auth.token;
    let reply = await this.sendWithRetries(method, url, body ?? null, headers, true);
    // The BMC forgot our session (timeout, BMC reboot): take a newer shared session, or log in again, and
    // replay. Two rounds at most: the shared session may itself be stale, a fresh login is not.
    for (let round = 0; round < 2 && reply.status === 401 && this.auth.mode === 'session'; round++) {
      await this.auth.renew(usedToken);
      usedToken = this.auth.token;
      reply = await this.sendWithRetries(method, url, body ?? null, headers, true);
    }
    return toRedfishResponse(method, url, reply);
  }

  /**
   * PATCH with If-Match. Uses the ETag given (from a GET the caller just made) and, when the BMC answers
   * 412/428, re-reads the resource and retries once with its fresh (strong) ETag.
   */
  async patch(path: string, body: RedfishObject, etag: string | null = null): Promise<RedfishResponse> {
    try {
      return await this.request('PATCH', path, body, etag ? { 'If-Match': etag } : {});
    } catch (err) {
      if (!(err instanceof RedfishPreconditionError)) throw err;
      const fresh = await this.etagOf(path);
      if (!fresh) throw err;
      return this.request('PATCH', path, body, { 'If-Match': fresh.replace(/^W\//, '') });
    }
  }

  async etagOf(path: string): Promise<string | null> {
    const res = await this.request('GET', path);
    const header = res.headers.etag;
    if (typeof header === 'string' && header !== '') return header;
    return res.json ? stringField(res.json, '@odata.etag') : null;
  }

  /** Deletes our BMC session (if any) and forgets it; the next request logs in again. */
  async logout(): Promise<void> {
    await this.auth.logout();
  }

  /** Absolute URL on this BMC; a BMC-supplied link to another host is refused (no credential leaks). */
  resolve(path: string): URL {
    let url: URL;
    try {
      url = new URL(path, this.endpoint.origin);
    } catch {
      throw new RedfishInvalidResponseError(`Invalid Redfish path ${JSON.stringify(path)}`, this.endpoint.origin);
    }
    if (url.origin !== new URL(this.endpoint.origin).origin) {
      throw new RedfishInvalidResponseError(`Refusing to follow ${url.href}: not on ${this.endpoint.origin}`, url.href);
    }
    return url;
  }

  private async sendWithRetries(method: string, url: URL, body: RedfishObject | null, headers: Record<string, string>, withAuth: boolean): Promise<HttpReply> {
    const payload = body === null ? null : Buffer.from(JSON.stringify(body));
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= this.attempts;
      try {
        const reply = await exchange({
          method,
          url,
          headers: { ...baseHeaders(payload !== null), ...(withAuth ? this.auth.headers() : {}), ...headers },
          body: payload,
          timeoutMs: this.timeoutMs,
          maxResponseBytes: this.maxResponseBytes,
          agent: this.agent,
        });
        // Like sushy, only reads are retried on BMC-side errors: a POSTed action may have run.
        if (reply.status >= 500 && method === 'GET' && !last) {
          await sleep(this.retryIntervalMs);
          continue;
        }
        return reply;
      } catch (err) {
        if (last || !retriable(err, method)) throw err;
        await sleep(this.retryIntervalMs);
      }
    }
  }
}

function retriable(err: unknown, method: string): boolean {
  if (!(err instanceof RedfishConnectionError) || err instanceof RedfishTlsError) return false;
  // A refused connection never delivered the request, so even a POST is safe to repeat.
  return IDEMPOTENT.has(method) || err.code === 'ECONNREFUSED';
}

function baseHeaders(hasBody: boolean): Record<string, string> {
  return {
    Accept: 'application/json',
    'OData-Version': '4.0',
    'User-Agent': 'ironic-ts-redfish',
    ...(hasBody ? { 'Content-Type': 'application/json' } : {}),
  };
}

function positiveInt(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) throw new RedfishConfigError(`${name} must be a positive integer, not ${value}`);
  return value;
}

