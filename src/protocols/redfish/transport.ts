// One HTTP exchange with hard bounds: a single deadline for connect+headers+body, and a byte cap on
// the body, so a slow, hostile or broken BMC yields a typed error instead of a hang or memory blow-up.

import { timeBmc } from '../../metrics/prometheus';
import http, { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import https from 'node:https';
import {
  RedfishConnectionError,
  RedfishError,
  RedfishInvalidResponseError,
  RedfishResponseTooLargeError,
  RedfishTimeoutError,
  RedfishTlsError,
} from './errors';

interface HttpExchange {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: Buffer | null;
  timeoutMs: number;
  maxResponseBytes: number;
  agent: http.Agent;
}

export interface HttpReply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID', 'ERR_TLS_CERT_ALTNAME_INVALID', 'CERT_SIGNATURE_FAILURE', 'EPROTO', 'ERR_SSL_WRONG_VERSION_NUMBER',
]);

/** One HTTP round trip to the BMC, timed for the BMC round-trip figures. */
export function exchange(spec: HttpExchange): Promise<HttpReply> {
  return timeBmc('redfish', () => exchangeOnce(spec));
}

function exchangeOnce(spec: HttpExchange): Promise<HttpReply> {
  const href = spec.url.href;
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (err: RedfishError): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      reject(err);
    };
    const transport = spec.url.protocol === 'https:' ? https : http;
    const headers = { ...spec.headers, ...(spec.body ? { 'Content-Length': String(spec.body.length) } : {}) };
    let req: http.ClientRequest;
    try {
      req = transport.request(spec.url, { method: spec.method, headers, agent: spec.agent });
    } catch (err) {
      // e.g. an ETag or token from the BMC with characters no HTTP header may carry.
      reject(new RedfishInvalidResponseError(`Cannot build the request to ${href}: ${(err as Error).message}`, href));
      return;
    }
    const timer = setTimeout(() => fail(new RedfishTimeoutError(href, spec.timeoutMs)), spec.timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => fail(mapSocketError(err, href)));
    req.on('response', (res: IncomingMessage) => {
      readBounded(res, spec.maxResponseBytes, href).then(
        (body) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
        },
        (err: RedfishError) => fail(err),
      );
    });
    req.end(spec.body ?? undefined);
  });
}

function readBounded(res: IncomingMessage, maxBytes: number, href: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      res.destroy();
      reject(new RedfishResponseTooLargeError(href, maxBytes));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        res.destroy();
        reject(new RedfishResponseTooLargeError(href, maxBytes));
        return;
      }
      chunks.push(chunk);
    });
    res.on('end', () => resolve(Buffer.concat(chunks)));
    res.on('error', (err: NodeJS.ErrnoException) => reject(mapSocketError(err, href)));
    // A peer that closes mid-body leaves the response incomplete without always emitting 'error'.
    res.on('close', () => {
      if (!res.complete) reject(new RedfishConnectionError(`Connection to ${href} closed before the response was complete`, href, 'ECONNRESET'));
    });
  });
}

function mapSocketError(err: NodeJS.ErrnoException, href: string): RedfishError {
  const code = err.code ?? null;
  if (code && TLS_CODES.has(code)) return new RedfishTlsError(`TLS failure talking to ${href}: ${err.message}`, href, code);
  if (code && code.startsWith('HPE_')) return new RedfishInvalidResponseError(`Malformed HTTP response from ${href}: ${err.message}`, href);
  if (code && (code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL_'))) return new RedfishTlsError(`TLS failure talking to ${href}: ${err.message}`, href, code);
  return new RedfishConnectionError(`Cannot talk to ${href}: ${err.message}`, href, code);
}
