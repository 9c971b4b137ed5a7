/**
 * The API side of rpc_transport = json-rpc: each call is a JSON-RPC 2.0 POST to the owning
 * conductor at http(s)://<its [DEFAULT]host>:[json_rpc]port, as ironic_lib's client addresses
 * it, with [json_rpc]timeout; an Ironic error comes back as the same typed class.
 */
import { randomUUID } from 'node:crypto';
import type { Config } from '../conf/config';
import { IronicError } from '../common/errors';
import { clientCredentials } from './json-rpc-auth';
import { decode, encode, fromFailure } from './wire';

const CLASS_PREFIX = 'ironic.common.exception.';

interface Answer {
  result?: unknown;
  error?: { code?: number; message?: string; data?: { class?: string } };
}

/** netutils.escape_ipv6: a literal IPv6 address goes in brackets. */
function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

export class JsonRpcCaller {
  private readonly credentials: () => Promise<Record<string, string>>;

  constructor(private readonly conf: Config) {
    this.credentials = clientCredentials(conf);
  }

  urlFor(host: string): string {
    const scheme = this.conf.bool('json_rpc', 'use_ssl') ? 'https' : 'http';
    return `${scheme}://${urlHost(host)}:${this.conf.int('json_rpc', 'port')}`;
  }

  async call(host: string, method: string, args: unknown[]): Promise<unknown> {
    const url = this.urlFor(host);
    const body = encode({ jsonrpc: '2.0', method, params: { args }, id: randomUUID() });
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(await this.credentials()) },
        body,
        signal: AbortSignal.timeout(this.conf.int('json_rpc', 'timeout') * 1000),
      });
    } catch (err) {
      throw new IronicError(`RPC ${method} to ${url} failed: ${(err as Error).message}`);
    }
    const text = await res.text();
    let answer: Answer;
    try {
      answer = decode<Answer>(text);
    } catch {
      throw new IronicError(`RPC ${method} to ${url} returned HTTP ${res.status} without a JSON-RPC answer`);
    }
    // Protocol answers come with 200 (or 204); anything else is the HTTP layer refusing the call.
    if (res.status !== 200) {
      throw new IronicError(`RPC ${method} to ${url} returned HTTP ${res.status}: ${answer.error?.message ?? text}`);
    }
    if (answer.error) throw this.errorFrom(answer.error);
    return answer.result ?? null;
  }

  /** ironic_lib's _handle_error: known Ironic classes come back as themselves. */
  private errorFrom(error: NonNullable<Answer['error']>): Error {
    const cls = error.data?.class;
    const message = error.message ?? 'Unexpected error raised by RPC';
    if (!cls || !cls.startsWith(CLASS_PREFIX)) return new IronicError(message);
    return fromFailure({ kind: cls.slice(CLASS_PREFIX.length), code: error.code ?? 500, message });
  }

  async close(): Promise<void> {
    // fetch keeps no connection state of ours.
  }
}
