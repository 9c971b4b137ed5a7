/**
 * Ironic 29.0.5's SwiftAPI (common/swift.py, an openstacksdk Connection on the [swift] session)
 * over the [swift] keystoneauth adapter: the object-store endpoint ([swift]endpoint_override,
 * else the service catalog) and the service token. Requests go as openstacksdk's object store
 * sends them (a container is looked up before it is created; an object whose x-sdk-md5/sha256
 * metadata already match is not uploaded again), and a refusal is SwiftOperationError(operation,
 * openstacksdk's HttpException text). As in Ironic, a refused Keystone login is keystoneauth's
 * own error (not wrapped), and a 401 from Swift re-authenticates once.
 */
import { createHash } from 'node:crypto';
import { KeystoneUnauthorized, MissingParameterValue, SwiftObjectNotFoundError, SwiftOperationError } from '../errors';
import type { Config } from '../../conf/config';
import { adapterFor, ServiceConnectFailure, type ServiceAdapter } from '../keystone/adapter';
import { keystoneauthText } from '../keystone/session';
import { signTempUrl } from './temp-url';

interface SwiftRequest {
  method: 'HEAD' | 'PUT' | 'DELETE';
  /** Below the account URL: '' for the account, `/container`, `/container/object`. */
  path: string;
  headers?: Record<string, string>;
  body?: Buffer;
}

/** openstacksdk's exception class for a status (exceptions.raise_from_response). */
const EXCEPTION_CLASSES = new Map([[400, 'BadRequestException'], [403, 'ForbiddenException'], [404, 'NotFoundException'],
  [409, 'ConflictException'], [412, 'PreconditionFailedException']]);

/** raise_from_response's details: JSON messages, an HTML page's text lines, else the reason. */
function errorDetails(res: Response, body: string): string {
  const type = res.headers.get('content-type') ?? '';
  let details = '';
  if (body && type.includes('application/json')) {
    try {
      const parsed = JSON.parse(body) as Record<string, unknown>;
      const message = (o: unknown) => (o && typeof o === 'object' && !Array.isArray(o)
        ? ((o as Record<string, unknown>).message ?? (o as Record<string, unknown>).faultstring) : undefined);
      let messages = Object.values(parsed).map(message).filter((m) => m);
      if (!messages.length) messages = [message(parsed)].filter((m) => m);
      details = messages.map(String).join('\n');
    } catch {
      details = body;
    }
  } else if (body && type.includes('text/html')) {
    const lines: string[] = [];
    for (const line of body.split(/\r?\n/)) {
      const text = line.trim().replace(/<.+?>/g, '');
      if (!lines.includes(text)) lines.push(text);
    }
    details = lines.filter((l) => l).join(': ');
  }
  return details || res.statusText || body;
}

/** A refused request, with the text of openstacksdk's HttpException for it. */
class SwiftRefused extends Error {
  constructor(readonly status: number, text: string) {
    super(text);
  }

  static async of(url: string, res: Response): Promise<SwiftRefused> {
    const body = await res.text().catch(() => '');
    const details = errorDetails(res, body);
    const source = res.status >= 400 && res.status < 500 ? 'Client' : 'Server';
    const name = EXCEPTION_CLASSES.get(res.status) ?? 'HttpException';
    return new SwiftRefused(res.status, `${name}: ${res.status}: ${source} Error for url: ${url}${details ? `, ${details}` : ''}`);
  }
}

/** Object and container names are quoted in the URL path. */
function quoted(name: string): string {
  return encodeURIComponent(name).replace(/%2F/g, '/');
}

function hashes(data: Buffer): { md5: string; sha256: string } {
  return { md5: createHash('md5').update(data).digest('hex'), sha256: createHash('sha256').update(data).digest('hex') };
}

export class SwiftApi {
  private constructor(private readonly adapter: ServiceAdapter, readonly url: string) {}

  /** SwiftAPI(): ConfigInvalid for incomplete credentials, Keystone's errors for the endpoint lookup. */
  static async connect(conf: Config): Promise<SwiftApi> {
    const adapter = adapterFor(conf, 'swift');
    return new SwiftApi(adapter, (await adapter.endpoint().catch(unwrapLogin)).replace(/\/+$/, ''));
  }

  private async send(req: SwiftRequest): Promise<Response> {
    const url = `${this.url}${req.path}`;
    const res = await this.adapter.fetch(url, { method: req.method, headers: req.headers, body: req.body }).catch((err: unknown) =>
      unwrapLogin(err instanceof ServiceConnectFailure ? err.original : err));
    if (res.ok) return res;
    throw await SwiftRefused.of(url, res);
  }

  /** send(), a refusal wrapped as SwiftOperationError(operation). */
  private async operation<T>(operation: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      if (err instanceof SwiftRefused) throw new SwiftOperationError({ operation, error: err.message });
      throw err;
    }
  }

  /** HEAD; null for a 404 (openstacksdk's "not found"). */
  private async head(path: string): Promise<Response | null> {
    try {
      return await this.send({ method: 'HEAD', path });
    } catch (err) {
      if (err instanceof SwiftRefused && err.status === 404) return null;
      throw err;
    }
  }

  /** create_object: the container (created when missing), then the object unless Swift holds the same bytes. */
  async createObject(container: string, obj: string, data: Buffer, headers: Record<string, string> = {}): Promise<void> {
    const containerPath = `/${quoted(container)}`;
    await this.operation('put container', async () => {
      if (!await this.head(containerPath)) await this.send({ method: 'PUT', path: containerPath });
    });
    const objectPath = `${containerPath}/${quoted(obj)}`;
    const { md5, sha256 } = hashes(data);
    await this.operation('put object', async () => {
      const existing = await this.head(objectPath);
      if (existing?.headers.get('x-object-meta-x-sdk-md5') === md5 && existing.headers.get('x-object-meta-x-sdk-sha256') === sha256) {
        return;
      }
      await this.send({ method: 'PUT', path: objectPath, body: data, headers: {
        ...headers, 'X-Object-Meta-X-Sdk-Md5': md5, 'X-Object-Meta-X-Sdk-Sha256': sha256,
      } });
    });
  }

  /** get_temp_url_key: the account's Temp-Url-Key-2, else Temp-Url-Key; null when it has neither. */
  async tempUrlKey(): Promise<string | null> {
    const res = await this.send({ method: 'HEAD', path: '' });
    return res.headers.get('x-account-meta-temp-url-key-2') || res.headers.get('x-account-meta-temp-url-key') || null;
  }

  /** get_temp_url: a GET URL for the object valid `seconds` from now, signed with the account's key. */
  async getTempUrl(container: string, obj: string, seconds: number, now = Date.now()): Promise<string> {
    const key = await this.tempUrlKey();
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
      await this.send({ method: 'DELETE', path: `/${quoted(container)}/${quoted(obj)}` });
    } catch (err) {
      if (!(err instanceof SwiftRefused)) throw err;
      if (err.status === 404) throw new SwiftObjectNotFoundError({ obj, container, operation: 'delete object' });
      throw new SwiftOperationError({ operation: 'delete object', error: err.message });
    }
  }
}

/**
 * openstacksdk lets keystoneauth's refusal through unwrapped: its text, not KeystoneUnauthorized's.
 * Anything else (a Swift that does not answer included) goes on as it was thrown.
 */
function unwrapLogin(err: unknown): never {
  const text = err instanceof KeystoneUnauthorized ? keystoneauthText(err) : null;
  throw text ? new Error(text) : err;
}
