/**
 * The conductor side of rpc_transport = json-rpc: JSON-RPC 2.0 over HTTP POST on
 * [json_rpc]host_ip:[json_rpc]port (HTTPS with [ssl] when [json_rpc]use_ssl), as ironic_lib's server (only POST, parse and request errors
 * with JSON-RPC's codes, notifications answered 204, Ironic errors carried with their class).
 * Each request runs on the local conductor through the same dispatch as the oslo transport.
 */
import * as http from 'node:http';
import type { Config } from '../conf/config';
import { log } from '../common/log';
import { maskMessage } from '../common/mask';
import { createListener, listenAt } from '../common/ssl-server';
import { BodyTooLarge, readLimited } from '../common/read-limited';
import type { ConductorApi } from './conductor-api';
import { dispatch, isRpcMethod } from './dispatch';
import { jsonRpcAuthStrategy, serverGate } from './json-rpc-auth';
import { guardNoauthExposure } from '../auth/noauth-exposure';
import { decode, encode, exceptionClassName, RpcReply, type RpcRequest } from './wire';

export interface JsonRpcServer {
  /** Where it listens, e.g. http://[::]:8089. */
  url: string;
  close(): Promise<void>;
}

/** JSON-RPC 2.0's reserved error codes. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;

interface Envelope {
  jsonrpc?: unknown;
  method?: unknown;
  params?: unknown;
  id?: unknown;
}

function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = body === undefined ? '' : encode(body);
  res.writeHead(status, { ...headers, ...(text ? { 'Content-Type': 'application/json' } : {}), 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/** Error messages are masked: a conductor error may echo driver_info or SQL text with bound values. */
function errorBody(id: unknown, code: number, message: string, kind?: string): unknown {
  const error = { code, message: maskMessage(message), ...(kind ? { data: { class: exceptionClassName(kind) } } : {}) };
  return { jsonrpc: '2.0', id: id ?? null, error };
}

function replyBody(id: unknown, reply: RpcReply): unknown {
  if ('failure' in reply) return errorBody(id, reply.failure.code, reply.failure.message, reply.failure.kind);
  return { jsonrpc: '2.0', id, result: reply.result };
}

/**
 * The largest call the API forwards is a provisioning request (a configdrive up to
 * [api]max_json_body_size_provision); its JSON escaping and envelope fit in twice that.
 */
function bodyLimit(conf: Config): number {
  return 2 * conf.int('api', 'max_json_body_size_provision');
}

/** The call's positional arguments: ironic-ts sends them as params.args (params must be an object). */
function argsOf(params: unknown): unknown[] | null {
  if (params === undefined) return [];
  if (params === null || typeof params !== 'object' || Array.isArray(params)) return null;
  const args = (params as { args?: unknown }).args;
  if (args === undefined) return [];
  return Array.isArray(args) ? args : null;
}

async function handleCall(local: ConductorApi, text: string, res: http.ServerResponse): Promise<void> {
  let body: Envelope;
  try {
    body = decode<Envelope>(text);
  } catch {
    send(res, 200, errorBody(null, PARSE_ERROR, 'Request parse error'));
    return;
  }
  const args = body && typeof body === 'object' ? argsOf(body.params) : null;
  if (!body || typeof body !== 'object' || body.jsonrpc !== '2.0' || typeof body.method !== 'string' || args === null) {
    send(res, 200, errorBody(body?.id, INVALID_REQUEST, 'Invalid request'));
    return;
  }
  if (!isRpcMethod(body.method)) {
    send(res, 200, errorBody(body.id, METHOD_NOT_FOUND, `Method ${body.method} was not found`));
    return;
  }
  const context = (body.params as { context?: RpcRequest['context'] } | undefined)?.context;
  const reply = await dispatch(local, { method: body.method, args, context: context && typeof context === 'object' ? context : undefined });
  // A request without an id is a notification: run, answer nothing.
  if (body.id === undefined) send(res, 204, undefined);
  else send(res, 200, replyBody(body.id, reply));
}

export async function serveJsonRpc(conf: Config, local: ConductorApi): Promise<JsonRpcServer> {
  const host = conf.str('json_rpc', 'host_ip');
  guardNoauthExposure(conf, { service: 'the JSON-RPC server', group: 'json_rpc', strategy: jsonRpcAuthStrategy(conf), host });
  const gate = serverGate(conf);
  const limit = bodyLimit(conf);
  const server = createListener(conf, conf.bool('json_rpc', 'use_ssl'), (req, res) => {
    void (async () => {
      if (req.method !== 'POST') {
        send(res, 405, { error: { code: 405, message: 'Only POST method can be used' } });
        return;
      }
      const refusal = await gate(req.headers, req.socket.remoteAddress ?? '');
      if (refusal) {
        send(res, refusal.status, { error: { code: refusal.status, message: refusal.message } }, refusal.headers);
        return;
      }
      await handleCall(local, (await readLimited(req, limit)).toString('utf8'), res);
    })().catch((err: unknown) => {
      if (err instanceof BodyTooLarge) {
        send(res, 413, { error: { code: 413, message: err.message } });
        return;
      }
      log.error(`JSON-RPC request failed: ${(err as Error).message}`);
      if (!res.headersSent) send(res, 500, { error: { code: 500, message: 'Internal error' } });
    });
  });
  const url = await listenAt(server, host, conf.int('json_rpc', 'port'));
  log.info(`JSON-RPC listening on ${url}`);
  return {
    url,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
