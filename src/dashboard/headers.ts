/**
 * The security headers of every /dashboard and /events response: a strict CSP (no inline script
 * or style, nothing from other origins, no framing), no MIME sniffing, no referrer.
 */
import type * as http from 'node:http';

const CSP = [
  "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'",
  "frame-ancestors 'none'", "base-uri 'none'", "form-action 'self'",
].join('; ');

const SECURITY_HEADERS: ReadonlyArray<[string, string]> = [
  ['Content-Security-Policy', CSP],
  ['X-Content-Type-Options', 'nosniff'],
  ['Referrer-Policy', 'no-referrer'],
  ['X-Frame-Options', 'DENY'],
  ['Cross-Origin-Opener-Policy', 'same-origin'],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
];

/** Set before any handler runs, so every answer (401s and 404s included) carries them. */
export function setSecurityHeaders(res: http.ServerResponse): void {
  for (const [name, value] of SECURITY_HEADERS) res.setHeader(name, value);
}

/** A small JSON answer ({"error": message} for failures). */
export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const bytes = Buffer.from(JSON.stringify(body), 'utf8');
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json', 'Content-Length': String(bytes.length), 'Cache-Control': 'no-store' });
  res.end(res.req.method === 'HEAD' ? undefined : bytes);
}

export function sendError(res: http.ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, { error: message }, headers);
}
