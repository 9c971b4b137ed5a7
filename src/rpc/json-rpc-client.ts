/**
 * The API side of rpc_transport = json-rpc: each call is a JSON-RPC 2.0 POST to the owning
 * conductor at http(s)://<its [DEFAULT]host>:[json_rpc]port, as ironic_lib's client addresses
 * it, with [json_rpc]timeout and, over TLS, the keystoneauth session options of [json_rpc]
 * (cafile, certfile/keyfile, insecure); an Ironic error comes back as the same typed class.
 */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import type { Config } from '../conf/config';
import type { OptionName } from '../conf/registry';
import { IronicError } from '../common/errors';
import { clientCredentials } from './json-rpc-auth';
import { callContext, decode, encode, fromFailure, kindOfExceptionClass } from './wire';

interface HttpAnswer {
  status: number;
  text: string;
}

/** One POST; node:http(s) rather than fetch, which cannot take a CA or a client certificate. */
function postJson(url: string, body: string, headers: Record<string, string>, tls: https.RequestOptions, timeoutMs: number):
  Promise<HttpAnswer> {
  const target = new URL(url);
  const send = target.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const req = send(target, {
      method: 'POST', ...tls, timeout: timeoutMs,
      headers: { ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** keystoneauth's session TLS settings of [json_rpc]. */
function clientTls(conf: Config): https.RequestOptions {
  const file = (name: OptionName<'json_rpc'>): Buffer | undefined => {
    const path = conf.optStr('json_rpc', name);
    return path ? fs.readFileSync(path) : undefined;
  };
  const [ca, cert, key] = [file('cafile'), file('certfile'), file('keyfile')];
  return { ...(ca ? { ca } : {}), ...(cert ? { cert } : {}), ...(key ? { key } : {}), rejectUnauthorized: !conf.bool('json_rpc', 'insecure') };
}

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
  private readonly tls: https.RequestOptions;

  constructor(private readonly conf: Config) {
    this.credentials = clientCredentials(conf);
    this.tls = clientTls(conf);
  }

  urlFor(host: string): string {
    const scheme = this.conf.bool('json_rpc', 'use_ssl') ? 'https' : 'http';
    return `${scheme}://${urlHost(host)}:${this.conf.int('json_rpc', 'port')}`;
  }

  async call(host: string, method: string, args: unknown[]): Promise<unknown> {
    const url = this.urlFor(host);
    // Ironic's JSON-RPC carries the request context in params.context; ironic-ts sends its request id there.
    const body = encode({ jsonrpc: '2.0', method, params: { args, context: callContext() }, id: randomUUID() });
    let res: HttpAnswer;
    try {
      res = await postJson(url, body, await this.credentials(), this.tls, this.conf.int('json_rpc', 'timeout') * 1000);
    } catch (err) {
      throw new IronicError(`RPC ${method} to ${url} failed: ${(err as Error).message}`);
    }
    const text = res.text;
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
    const kind = kindOfExceptionClass(error.data?.class);
    const message = error.message ?? 'Unexpected error raised by RPC';
    return kind ? fromFailure({ kind, code: error.code ?? 500, message }) : new IronicError(message);
  }

  async close(): Promise<void> {
    // Each call is a request of its own: nothing stays open.
  }
}
