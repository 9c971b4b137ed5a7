/**
 * GET/HEAD of the dashboard's built assets: web/dashboard/ at /dashboard/ (paths confined to it,
 * as the image HTTP server confines its root) and the vendor allow-list at /dashboard/vendor/.
 */
import { createReadStream, realpathSync } from 'node:fs';
import type * as http from 'node:http';
import * as path from 'node:path';
import { HttpPathError, resolveRequestPath } from '../protocols/http/resolve';
import { VENDOR_FILES } from './vendor-files';
import { sendError } from './headers';

/** web/dashboard/ of the package (dist/src/dashboard/ is three levels below its root). */
const WEB_ROOT = path.resolve(__dirname, '..', '..', '..', 'web', 'dashboard');

const TYPES = new Map<string, string>([
  ['.html', 'text/html; charset=utf-8'], ['.js', 'text/javascript; charset=utf-8'], ['.mjs', 'text/javascript; charset=utf-8'],
  ['.css', 'text/css; charset=utf-8'], ['.json', 'application/json'], ['.map', 'application/json'], ['.svg', 'image/svg+xml'],
  ['.png', 'image/png'], ['.ico', 'image/x-icon'], ['.woff2', 'font/woff2'], ['.txt', 'text/plain; charset=utf-8'],
]);

const STATUS_FOR = new Map<string, number>([['bad-request', 400], ['forbidden', 403], ['not-found', 404]]);

function vendorPath(name: string): string | null {
  const target = VENDOR_FILES.get(name);
  if (target === undefined) return null;
  try {
    return require.resolve(target);
  } catch {
    return null;
  }
}

/** `rel` is the path below /dashboard/ ('' for the app's index). */
export async function serveStatic(req: http.IncomingMessage, res: http.ServerResponse, rel: string): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    sendError(res, 405, 'Method not allowed', { Allow: 'GET, HEAD' });
    return;
  }
  let file: string;
  let size: number;
  try {
    if (rel.startsWith('vendor/')) {
      const found = vendorPath(decodeURIComponent(rel.slice('vendor/'.length)));
      if (!found) throw new HttpPathError('not-found');
      ({ file, size } = await resolveRequestPath(path.dirname(found), `/${path.basename(found)}`));
    } else {
      ({ file, size } = await resolveRequestPath(realRoot(), `/${rel || 'index.html'}`));
    }
  } catch (err) {
    if (!(err instanceof HttpPathError) && !(err instanceof URIError)) throw err;
    const status = err instanceof HttpPathError ? STATUS_FOR.get(err.kind) ?? 404 : 400;
    sendError(res, status, status === 404 ? 'Not found' : 'Bad path');
    return;
  }
  res.writeHead(200, {
    'Content-Type': TYPES.get(path.extname(file)) ?? 'application/octet-stream',
    'Content-Length': String(size),
    // index.html names the other assets; it is always checked, the rest may be cached briefly.
    'Cache-Control': file.endsWith('.html') ? 'no-cache' : 'max-age=300',
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(file).on('error', () => res.destroy()).pipe(res);
}

let cachedRoot: string | null = null;

function realRoot(): string {
  if (cachedRoot === null) {
    try {
      cachedRoot = realpathSync(WEB_ROOT);
    } catch {
      throw new HttpPathError('not-found');
    }
  }
  return cachedRoot;
}
