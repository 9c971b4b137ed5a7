// A raw HTTP/1.1 client: we need full control of the request headers (fetch adds its own) and we must
// survive servers that close the connection on oversized bodies.
import * as http from 'node:http';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  bodyText: string;
}

export interface RawRequest {
  port: number;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

const REQUEST_TIMEOUT_MS = 30_000;

/** Sends one request on a fresh connection; transport failures come back as status 0 with the error text. */
export function sendRaw(req: RawRequest): Promise<RawResponse> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = { ...req.headers, Connection: 'close' };
    if (req.body !== undefined) headers['Content-Length'] = String(req.body.length);
    const outgoing = http.request(
      { host: '127.0.0.1', port: req.port, method: req.method, path: req.path, headers, agent: false },
      (res) => collect(res, resolve),
    );
    outgoing.setTimeout(REQUEST_TIMEOUT_MS, () => outgoing.destroy(new Error('request timed out')));
    outgoing.on('error', (err: Error) => resolve({ status: 0, headers: {}, bodyText: `transport error: ${transportKind(err)}` }));
    outgoing.end(req.body);
  });
}

function collect(res: http.IncomingMessage, resolve: (r: RawResponse) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('error', () => undefined);
  res.on('close', () => {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) {
      if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
    }
    resolve({ status: res.statusCode ?? 0, headers, bodyText: Buffer.concat(chunks).toString('utf8') });
  });
}

// Error codes differ in wording between peers closing early (EPIPE vs ECONNRESET); both mean "closed".
function transportKind(err: Error): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EPIPE' || code === 'ECONNRESET') return 'connection closed by server';
  return code ?? err.message;
}
