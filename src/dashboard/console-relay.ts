/**
 * /dashboard/console/<node>: a WebSocket relaying a node's serial console both ways. The
 * handshake needs a live session and an Origin naming this server (browsers send it on every
 * WebSocket handshake, so another site's page cannot open one with the user's cookie); the node's
 * console is reached as `GET /v1/nodes/<node>/states/console` would describe it, under the same
 * policy (baremetal:node:get_console). A `socat` console (ipmitool-socat) is a TCP stream the relay
 * connects to; any other console type, or a disabled console, closes the WebSocket with the reason.
 */
import type * as http from 'node:http';
import * as net from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ApiDeps } from '../api/deps';
import type { RequestAuth } from '../api/policy/scope';
import { authorizeNodeAction } from '../api/policy/enforce';
import { IronicError, NodeConsoleNotEnabled } from '../common/errors';
import { log } from '../common/log';
import * as nodes from '../db/repositories/nodes';
import { NotFoundError } from '../db/errors';
import type { Session } from './sessions';
import { sameOrigin } from './origin';

const PREFIX = '/dashboard/console/';
/** Bytes the browser may leave unread before the serial side is paused. */
const HIGH_WATER = 1 << 20;
const MAX_FRAME = 64 * 1024;

/** WebSocket close codes: policy (1008) for refusals, 1011 for failures, 1000 when the console ends. */
const CLOSE_REFUSED = 1008;
const CLOSE_FAILED = 1011;

function refuseUpgrade(socket: Duplex, status: number, text: string): void {
  const body = JSON.stringify({ error: text });
  socket.end(`HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
    `Connection: close\r\n\r\n${body}`);
}

/** tcp://host:port of a socat console, or null for any other console. */
function socatTarget(info: Record<string, unknown>): { host: string; port: number } | null {
  if (info.type !== 'socat' || typeof info.url !== 'string') return null;
  const m = /^tcp:\/\/(\[[^\]]+\]|[^:/]+):(\d+)$/.exec(info.url);
  if (!m) return null;
  return { host: m[1].replace(/^\[|\]$/g, ''), port: Number(m[2]) };
}

export class ConsoleRelay {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME, perMessageDeflate: false });
  private readonly open = new Map<string, number>();

  constructor(private readonly deps: ApiDeps, private readonly maxPerNode: number) {}

  upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer, path: string, session: Session | null,
    auth: RequestAuth | undefined): void {
    if (!path.startsWith(PREFIX)) return refuseUpgrade(socket, 404, 'Not Found');
    if (!session) return refuseUpgrade(socket, 401, 'Unauthorized');
    if (!sameOrigin(req, true)) return refuseUpgrade(socket, 403, 'Forbidden');
    let ident: string;
    try {
      ident = decodeURIComponent(path.slice(PREFIX.length));
    } catch {
      return refuseUpgrade(socket, 400, 'Bad Request');
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      this.relay(ws, ident, auth).catch((err: unknown) => {
        log.error(`Dashboard console for ${ident}: ${(err as Error).message}`);
        ws.close(CLOSE_FAILED, 'Console relay failed');
      });
    });
  }

  close(): void {
    for (const client of this.wss.clients) client.terminate();
    this.wss.close();
  }

  private async relay(ws: WebSocket, ident: string, auth: RequestAuth | undefined): Promise<void> {
    let uuid: string;
    try {
      await authorizeNodeAction(this.deps.db, auth, ident, 'baremetal:node:get_console');
      uuid = (await nodes.find(this.deps.db, ident)).uuid;
    } catch (err) {
      if (err instanceof NotFoundError) return ws.close(CLOSE_REFUSED, `Node ${ident} could not be found`);
      if (err instanceof IronicError) return ws.close(CLOSE_REFUSED, err.message.slice(0, 120));
      throw err;
    }
    // Counted before get_console: the ipmitool consoles' get_console ends the open SOL session.
    const count = this.open.get(uuid) ?? 0;
    if (count >= this.maxPerNode) return ws.close(CLOSE_REFUSED, 'The console is already open elsewhere');
    this.open.set(uuid, count + 1);
    ws.once('close', () => this.release(uuid));
    let info: Record<string, unknown>;
    try {
      info = await this.deps.conductor.getConsoleInformation(uuid);
    } catch (err) {
      if (err instanceof NodeConsoleNotEnabled) return ws.close(CLOSE_REFUSED, 'The node\'s console is not enabled');
      if (err instanceof IronicError) return ws.close(CLOSE_REFUSED, err.message.slice(0, 120));
      throw err;
    }
    const target = socatTarget(info);
    if (!target) return ws.close(CLOSE_REFUSED, 'The node\'s console interface offers no serial stream');
    if (ws.readyState !== ws.OPEN) return;
    pipe(ws, net.connect(target.port, target.host), uuid);
  }

  private release(uuid: string): void {
    const left = (this.open.get(uuid) ?? 1) - 1;
    if (left > 0) this.open.set(uuid, left);
    else this.open.delete(uuid);
  }
}

/** Bytes both ways, each side paused while the other is behind. */
function pipe(ws: WebSocket, serial: net.Socket, uuid: string): void {
  serial.on('data', (data: Buffer) => {
    ws.send(data, { binary: true });
    if (ws.bufferedAmount > HIGH_WATER) {
      serial.pause();
      const wait = setInterval(() => {
        if (ws.readyState !== ws.OPEN || ws.bufferedAmount <= HIGH_WATER / 2) {
          clearInterval(wait);
          serial.resume();
        }
      }, 50);
    }
  });
  ws.on('message', (data: Buffer, isBinary: boolean) => {
    if (!serial.write(isBinary ? data : Buffer.from(data.toString('utf8'), 'utf8'))) {
      ws.pause();
      serial.once('drain', () => ws.resume());
    }
  });
  serial.on('error', (err) => {
    log.warning(`Console of node ${uuid}: ${err.message}`);
    ws.close(CLOSE_FAILED, 'The console connection failed');
  });
  serial.on('close', () => {
    if (ws.readyState === ws.OPEN) ws.close(1000, 'The console closed');
  });
  ws.on('close', () => serial.destroy());
}
