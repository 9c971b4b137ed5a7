/**
 * Read-only static file server for [deploy]http_root: iPXE scripts, kernels, ramdisks and
 * images. GET and HEAD, one byte range, Content-Length always, streaming with backpressure
 * (large read buffers: image transfers are the hot path), paths confined to the root.
 */
import { createReadStream, promises as fsp } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream/promises';
import { parseRange } from './range';
import { HttpPathError, resolveRequestPath } from './resolve';

interface HttpFileServerOptions {
  root: string;
  host?: string;
  port?: number;
  /** Read buffer per transfer. Default 1 MiB. */
  chunkSize?: number;
  /** Called once per answered request (logs/metrics). */
  onRequest?: (event: HttpRequestEvent) => void;
}

interface HttpRequestEvent {
  method: string;
  url: string;
  status: number;
  bytes: number;
}

export interface HttpFileServer {
  port: number;
  address: string;
  /** Base URL, e.g. http://127.0.0.1:8080 */
  url: string;
  close(): Promise<void>;
}

class HttpFileServerError extends Error {
  override readonly name = 'HttpFileServerError';
}

const STATUS_FOR: Record<HttpPathError['kind'], number> = { 'bad-request': 400, forbidden: 403, 'not-found': 404 };

function contentType(file: string): string {
  if (file.endsWith('.ipxe') || file.endsWith('.cfg') || file.endsWith('/config') || file.endsWith('.conf')) return 'text/plain; charset=utf-8';
  if (file.endsWith('.iso')) return 'application/x-iso9660-image';
  return 'application/octet-stream';
}

function sendEmpty(res: http.ServerResponse, status: number, headers: Record<string, string> = {}): void {
  const body = `${status} ${http.STATUS_CODES[status] ?? ''}\n`;
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': String(Buffer.byteLength(body)), ...headers });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

class Handler {
  constructor(private readonly realRoot: string, private readonly chunkSize: number, private readonly onRequest: (e: HttpRequestEvent) => void) {}

  async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    let bytes = 0;
    try {
      if (method !== 'GET' && method !== 'HEAD') return sendEmpty(res, 405, { Allow: 'GET, HEAD' });
      let target;
      try {
        target = await resolveRequestPath(this.realRoot, req.url ?? '/');
      } catch (err) {
        if (err instanceof HttpPathError) return sendEmpty(res, STATUS_FOR[err.kind]);
        throw err;
      }
      bytes = await this.sendFile(req, res, target.file, target.size, target.mtime);
    } catch {
      if (!res.headersSent) sendEmpty(res, 500);
      else res.destroy();
    } finally {
      this.onRequest({ method, url: req.url ?? '', status: res.statusCode, bytes });
    }
  }

  private async sendFile(req: http.IncomingMessage, res: http.ServerResponse, file: string, size: number, mtime: Date): Promise<number> {
    const headers: Record<string, string> = {
      'Accept-Ranges': 'bytes',
      'Content-Type': contentType(file),
      'Last-Modified': mtime.toUTCString(),
      ETag: `"${size.toString(16)}-${Math.floor(mtime.getTime()).toString(16)}"`,
    };
    const ifRange = req.headers['if-range'];
    const range = ifRange && ifRange !== headers.ETag && ifRange !== headers['Last-Modified'] ? undefined : parseRange(req.headers.range, size);
    if (range === 'unsatisfiable') {
      sendEmpty(res, 416, { 'Content-Range': `bytes */${size}` });
      return 0;
    }
    const start = range?.start ?? 0;
    const end = range?.end ?? size - 1;
    const length = size === 0 ? 0 : end - start + 1;
    headers['Content-Length'] = String(length);
    if (range) headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
    res.writeHead(range ? 206 : 200, headers);
    if (req.method === 'HEAD' || length === 0) {
      res.end();
      return 0;
    }
    // Opened before streaming so a vanished file fails cleanly; the stream owns the handle after.
    const fh = await fsp.open(file, 'r');
    const stream = createReadStream('', { fd: fh, start, end, highWaterMark: this.chunkSize });
    await pipeline(stream, res);
    return length;
  }
}

/** Starts the server; `port: 0` picks a free port, reported back. */
export async function startHttpFileServer(opts: HttpFileServerOptions): Promise<HttpFileServer> {
  const st = await fsp.stat(opts.root).catch(() => undefined);
  if (!st?.isDirectory()) throw new HttpFileServerError(`HTTP root ${opts.root} is not a directory`);
  const handler = new Handler(await fsp.realpath(opts.root), opts.chunkSize ?? 1024 * 1024, opts.onRequest ?? (() => undefined));
  const server = http.createServer({ keepAliveTimeout: 5000 }, (req, res) => void handler.handle(req, res));
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  const shown = addr.address === '0.0.0.0' ? '127.0.0.1' : addr.address === '::' ? '::1' : addr.address;
  return {
    port: addr.port,
    address: addr.address,
    url: `http://${shown.includes(':') ? `[${shown}]` : shown}:${addr.port}`,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
