/**
 * Sends a generated request over a real socket with node:http (not fetch: fetch normalises paths
 * and refuses some byte sequences the fuzzer means to send) and returns the raw answer.
 */
import * as http from 'node:http';

export interface FuzzRequest {
  /** The route pattern the request was generated for (`unknown` for made-up paths). */
  route: string;
  method: string;
  /** Path and query, already encoded as they go on the wire. */
  url: string;
  headers: Array<[string, string]>;
  body: Buffer | null;
  /** How it was generated (style.ts), for traces; absent on the suite's own requests. */
  style?: string;
}

export interface FuzzResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export class NoResponse extends Error {}

/** Generous: only a hung server should reach it. */
const TIMEOUT_MS = 30_000;

export function createAgent(concurrency: number): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets: concurrency });
}

export function send(base: URL, req: FuzzRequest, agent: http.Agent): Promise<FuzzResponse> {
  // Raw header pairs (rawHeaders' format): generated names such as `__proto__` stay plain names.
  // With raw pairs node adds no Host header, so one is supplied unless the request has its own.
  const headers = req.headers.flat();
  if (!req.headers.some(([name]) => name.toLowerCase() === 'host')) headers.push('Host', base.host);
  if (req.body) headers.push('Content-Length', String(req.body.length));
  return new Promise((resolve, reject) => {
    const r = http.request({
      host: base.hostname, port: base.port, method: req.method, path: req.url, headers, agent, timeout: TIMEOUT_MS,
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', (err) => reject(new NoResponse(`response aborted: ${err.message}`)));
    });
    r.on('timeout', () => r.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
    r.on('error', (err) => reject(new NoResponse(err.message)));
    r.end(req.body ?? undefined);
  });
}

/** The request as a reader can replay it: method, URL, headers and (shortened) body. */
export function describeRequest(req: FuzzRequest, maxBody = 600): string {
  const headers = req.headers.map(([n, v]) => `${n}: ${v}`).join(' | ');
  let body = '';
  if (req.body) {
    const text = req.body.toString('utf8');
    const printable = Buffer.from(text).equals(req.body) ? JSON.stringify(text) : `hex:${req.body.toString('hex')}`;
    body = printable.length > maxBody ? `${printable.slice(0, maxBody)}… (${req.body.length} bytes)` : printable;
  }
  return `${req.method} ${req.url}${headers ? `\n    headers: ${headers}` : ''}${body ? `\n    body: ${body}` : ''}`;
}
