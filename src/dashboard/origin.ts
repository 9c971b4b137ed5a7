/** Same-origin checks for state-changing requests and WebSocket upgrades. */
import type * as http from 'node:http';

/**
 * True when the request carries no Origin (a non-browser client) or one naming this server's own
 * Host; browsers always send Origin on cross-origin POSTs and WebSocket handshakes.
 */
export function sameOrigin(req: http.IncomingMessage, required = false): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return !required;
  const host = req.headers.host;
  if (!host) return false;
  try {
    return new URL(origin).host === host.toLowerCase();
  } catch {
    return false;
  }
}
