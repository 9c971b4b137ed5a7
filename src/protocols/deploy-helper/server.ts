/**
 * The deploy helper's wire side (the design's iSCSI deploy, nova-baremetal-deploy-helper): the deploy
 * ramdisk POSTs `i=<deployment id>&k=<key>&a=<its address>&n=<target iqn>` as a form once its disk
 * is exported, and later listens for a plain TCP "done". Unauthenticated network input, so the
 * server bounds what one client may cost: the body size, the time to send it, concurrent
 * connections, and requests per address per minute.
 */
import * as http from 'node:http';
import * as net from 'node:net';
import { once } from 'node:events';

export interface ReadyCall {
  deploymentId: string;
  key: string;
  address: string;
  iqn: string;
  /** The address the request came from. */
  peer: string;
}

export interface HelperAnswer {
  status: number;
  message: string;
}

export interface DeployHelperServer {
  port: number;
  close(): Promise<void>;
}

const MAX_BODY = 4096;
const REQUEST_TIMEOUT_MS = 10_000;
const MAX_CONNECTIONS = 64;
const REQUESTS_PER_MINUTE = 60;
const FIELDS = ['i', 'k', 'a', 'n'] as const;

/** Per-address request counts over the current minute. */
class RateLimit {
  private window = 0;
  private counts = new Map<string, number>();

  allow(peer: string): boolean {
    const minute = Math.floor(Date.now() / 60_000);
    if (minute !== this.window) {
      this.window = minute;
      this.counts.clear();
    }
    const n = (this.counts.get(peer) ?? 0) + 1;
    this.counts.set(peer, n);
    return n <= REQUESTS_PER_MINUTE;
  }
}

function parseReady(body: string, peer: string): ReadyCall | string {
  const form = new URLSearchParams(body);
  const missing = FIELDS.filter((f) => !form.get(f));
  if (missing.length) return `missing ${missing.join(', ')}`;
  const address = form.get('a')!;
  if (net.isIP(address) === 0) return 'a is not an IP address';
  return { deploymentId: form.get('i')!, key: form.get('k')!, address, iqn: form.get('n')!, peer };
}

async function readBody(req: http.IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function answer(res: http.ServerResponse, a: HelperAnswer): void {
  res.writeHead(a.status, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' });
  res.end(`${a.message}\n`);
}

async function serve(req: http.IncomingMessage, res: http.ServerResponse, limit: RateLimit,
  onReady: (call: ReadyCall) => Promise<HelperAnswer>): Promise<void> {
  const peer = req.socket.remoteAddress ?? '';
  if (!limit.allow(peer)) return answer(res, { status: 429, message: 'too many requests' });
  if (req.method !== 'POST') return answer(res, { status: 405, message: 'POST the deploy parameters' });
  const body = await readBody(req);
  if (body === null) return answer(res, { status: 413, message: 'body too large' });
  const call = parseReady(body, peer);
  if (typeof call === 'string') return answer(res, { status: 400, message: call });
  answer(res, await onReady(call));
}

export async function startDeployHelperServer(host: string, port: number,
  onReady: (call: ReadyCall) => Promise<HelperAnswer>, onError: (err: Error) => void): Promise<DeployHelperServer> {
  const limit = new RateLimit();
  const server = http.createServer({ requestTimeout: REQUEST_TIMEOUT_MS, headersTimeout: REQUEST_TIMEOUT_MS }, (req, res) => {
    serve(req, res, limit, onReady).catch((err: Error) => {
      onError(err);
      if (!res.headersSent) answer(res, { status: 500, message: 'internal error' });
    });
  });
  server.maxConnections = MAX_CONNECTIONS;
  server.on('clientError', (_err, socket) => socket.destroy());
  server.listen(port, host);
  await once(server, 'listening');
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** notify: tells the ramdisk at address:port that its disk is written ("done"), as the design's helper did. */
export function notifyDone(address: string, port: number, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: address, port, timeout: timeoutMs });
    socket.once('connect', () => socket.end('done'));
    socket.once('timeout', () => socket.destroy(new Error(`no answer from ${address}:${port} within ${timeoutMs / 1000} s`)));
    socket.once('error', reject);
    socket.once('close', (hadError) => { if (!hadError) resolve(); });
  });
}
