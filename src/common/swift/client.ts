/**
 * Ironic's SwiftAPI (common/swift.py) over the [swift] keystoneauth adapter: the object-store
 * endpoint ([swift]endpoint_override, else the service catalog) and the service token, with
 * swiftclient's request behaviour: a 401 re-authenticates once, 408/5xx and connection failures
 * are retried [swift]swift_max_retries times with a doubling back-off from 1 s. A refused
 * request is SwiftOperationError(operation, swiftclient's ClientException text).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { MissingParameterValue, SwiftObjectNotFoundError, SwiftOperationError } from '../errors';
import type { Config } from '../../conf/config';
import { adapterFor, type ServiceAdapter } from '../keystone/adapter';
import { pyReprBytes } from '../python/repr';
import { signTempUrl } from './temp-url';

const MAX_BACKOFF_S = 64;
/** swiftclient prints at most this much of a refused request's body. */
const BODY_SHOWN = 60;

interface SwiftRequest {
  method: 'GET' | 'HEAD' | 'PUT' | 'POST' | 'DELETE';
  /** Below the account URL: '' for the account, `/container`, `/container/object`. */
  path: string;
  headers?: Record<string, string>;
  body?: Buffer;
  /** swiftclient's message for a refused request, e.g. "Object PUT failed". */
  failure: string;
}

/** The text of swiftclient's ClientException.from_response for a refused request. */
async function clientExceptionText(failure: string, url: string, res: Response): Promise<{ text: string; status: number }> {
  const u = new URL(url);
  const port = u.port || (u.protocol === 'https:' ? '443' : '80');
  let where = `${u.protocol}//${u.hostname}:${port}${u.pathname}${u.search}`;
  where += ` ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`;
  const body = Buffer.from(await res.arrayBuffer().catch(() => new ArrayBuffer(0)));
  if (body.length) {
    where += body.length <= BODY_SHOWN ? `   ${pyReprBytes(body)}` : `  [first 60 chars of response] ${pyReprBytes(body.subarray(0, BODY_SHOWN))}`;
  }
  const txn = res.headers.get('x-trans-id') ?? res.headers.get('x-openstack-request-id');
  return { text: `${failure}: ${where}${txn ? ` (txn: ${txn})` : ''}`, status: res.status };
}

class SwiftRefused extends Error {
  constructor(readonly status: number, text: string) {
    super(text);
  }
}

function retryable(status: number): boolean {
  return status === 408 || (status >= 500 && status <= 599);
}

/** Object and container names are quoted as swiftclient does (quote(name, safe='/')). */
function quoted(name: string): string {
  return encodeURIComponent(name).replace(/%2F/g, '/');
}

export class SwiftApi {
  private constructor(private readonly adapter: ServiceAdapter, readonly url: string, private readonly retries: number) {}

  /** SwiftAPI(): ConfigInvalid for incomplete credentials, Keystone's errors for the endpoint lookup. */
  static async connect(conf: Config): Promise<SwiftApi> {
    const adapter = adapterFor(conf, 'swift');
    return new SwiftApi(adapter, (await adapter.endpoint()).replace(/\/+$/, ''), conf.int('swift', 'swift_max_retries'));
  }

  private async send(req: SwiftRequest): Promise<Response> {
    const url = `${this.url}${req.path}`;
    let backoff = 1;
    let reauthenticated = false;
    let refresh = false;
    for (let attempt = 0; ; attempt += 1) {
      // Keystone's own errors (KeystoneUnauthorized...) are not Swift's to retry.
      const auth = await this.adapter.authHeaders(refresh);
      refresh = false;
      let res: Response;
      try {
        res = await fetch(url, {
          method: req.method,
          headers: { ...(req.headers ?? {}), ...auth },
          body: req.body,
          ...(this.adapter.timeoutMs ? { signal: AbortSignal.timeout(this.adapter.timeoutMs) } : {}),
        });
      } catch (err) {
        if (attempt >= this.retries) throw new Error(`${req.method} ${url} failed: ${(err as Error).message}`);
        await sleep(backoff * 1000);
        backoff = Math.min(backoff * 2, MAX_BACKOFF_S);
        continue;
      }
      if (res.ok) return res;
      const refused = await clientExceptionText(req.failure, url, res);
      if (res.status === 401 && !reauthenticated) {
        reauthenticated = refresh = true;
        attempt -= 1;
        continue;
      }
      if (!retryable(res.status) || attempt >= this.retries) throw new SwiftRefused(refused.status, refused.text);
      await sleep(backoff * 1000);
      backoff = Math.min(backoff * 2, MAX_BACKOFF_S);
    }
  }

  /** send(), a refusal wrapped as SwiftOperationError(operation). */
  private async operation(operation: string, req: SwiftRequest): Promise<Response> {
    try {
      return await this.send(req);
    } catch (err) {
      if (err instanceof SwiftRefused) throw new SwiftOperationError({ operation, error: err.message });
      throw err;
    }
  }

  /** create_object: PUT the container, then the object; returns the object's ETag. */
  async createObject(container: string, obj: string, data: Buffer, headers: Record<string, string> = {}): Promise<string> {
    await this.operation('put container', { method: 'PUT', path: `/${quoted(container)}`, failure: 'Container PUT failed' });
    const res = await this.operation('put object', {
      method: 'PUT', path: `/${quoted(container)}/${quoted(obj)}`, headers, body: data, failure: 'Object PUT failed',
    });
    return (res.headers.get('etag') ?? '').replace(/^"|"$/g, '');
  }

  /** head_account's X-Account-Meta-Temp-Url-Key, null when the account has none. */
  async accountTempUrlKey(): Promise<string | null> {
    const res = await this.operation('head account', { method: 'HEAD', path: '', failure: 'Account HEAD failed' });
    return res.headers.get('x-account-meta-temp-url-key') || null;
  }

  /** get_temp_url: a GET URL for the object valid `seconds` from now, signed with the account's key. */
  async getTempUrl(container: string, obj: string, seconds: number, now = Date.now()): Promise<string> {
    const key = await this.accountTempUrlKey();
    if (!key) {
      throw new MissingParameterValue('Swift temporary URLs require a shared secret to be created. You must provide ' +
        'pre-generate the key on the project used to access Swift.');
    }
    const base = new URL(this.url);
    const objectPath = [base.pathname.replace(/\/+$/, ''), container, obj].join('/');
    return `${base.protocol}//${base.host}${signTempUrl(objectPath, Math.floor(now / 1000 + seconds), key)}`;
  }

  /** delete_object: SwiftObjectNotFoundError for a missing object. */
  async deleteObject(container: string, obj: string): Promise<void> {
    try {
      await this.send({ method: 'DELETE', path: `/${quoted(container)}/${quoted(obj)}`, failure: 'Object DELETE failed' });
    } catch (err) {
      if (!(err instanceof SwiftRefused)) throw err;
      if (err.status === 404) throw new SwiftObjectNotFoundError({ obj, container, operation: 'delete object' });
      throw new SwiftOperationError({ operation: 'delete object', error: err.message });
    }
  }

  /** head_object: the object's headers (lower-case names). */
  async headObject(container: string, obj: string): Promise<Map<string, string>> {
    const res = await this.operation('head object', {
      method: 'HEAD', path: `/${quoted(container)}/${quoted(obj)}`, failure: 'Object HEAD failed',
    });
    return new Map(res.headers.entries());
  }
}
