/**
 * GET /events/nodes and /dashboard/api/events/nodes: server-sent events of node changes for one
 * caller, filtered by node (uuid or name) and type. Events are coalesced per node and type between
 * flushes (the latest values win); a client that leaves more than the buffer bound unread is cut
 * off, so a stalled reader costs the server at most that much memory; a comment line every
 * heartbeat interval keeps proxies from closing an idle stream.
 */
import type * as http from 'node:http';
import type { RequestAuth } from '../api/policy/scope';
import { HTTPForbidden } from '../common/errors';
import { log } from '../common/log';
import type { EventHub, SequencedEvent, Subscriber } from './event-hub';
import { EVENT_TYPES, type NodeEventType, type NodeView } from './node-events';
import { streamScope, type StreamScope } from './stream-scope';
import type { StreamLimits } from './stream-limits';
import { sendError } from './headers';
import { connectionKey } from './tcp-send-queue';

export interface StreamSettings {
  hub: EventHub;
  limits: StreamLimits;
  bufferBytes: number;
}

interface StreamFilter {
  nodes: Set<string> | null;
  types: Set<NodeEventType> | null;
}

const KNOWN_TYPES = new Set<string>(EVENT_TYPES);

/** The `node` and `type` query arguments (comma-separated, repeatable); a message for a bad one. */
function parseFilter(url: URL): StreamFilter | string {
  const values = (name: string): string[] | null => {
    const all = url.searchParams.getAll(name).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
    return all.length ? all : null;
  };
  const types = values('type');
  const unknown = types?.find((t) => !KNOWN_TYPES.has(t));
  if (unknown !== undefined) return `Unknown event type ${JSON.stringify(unknown)}; known types: ${EVENT_TYPES.join(', ')}`;
  const nodes = values('node');
  if (nodes && nodes.length > 1000) return 'At most 1000 nodes may be named';
  return { nodes: nodes ? new Set(nodes) : null, types: types ? new Set(types as NodeEventType[]) : null };
}

/**
 * Each event's bytes, built once per variant (its type for this caller, and its fields as stored,
 * redacted or as last seen) and shared by all streams: writing the same Buffer to many sockets
 * copies nothing per client.
 */
const framed = new WeakMap<SequencedEvent, Map<NodeEventType, Map<NodeView, Buffer>>>();

function frame(event: SequencedEvent, type: NodeEventType, node: NodeView): Buffer {
  let byType = framed.get(event);
  if (!byType) framed.set(event, byType = new Map());
  let variants = byType.get(type);
  if (!variants) byType.set(type, variants = new Map());
  let bytes = variants.get(node);
  if (bytes === undefined) {
    const data = { type, node, ...(event.history ? { history: event.history } : {}) };
    bytes = Buffer.from(`id: ${event.seq}\nevent: node\ndata: ${JSON.stringify(data)}\n\n`, 'utf8');
    variants.set(node, bytes);
  }
  return bytes;
}

const HEARTBEAT = Buffer.from(': heartbeat\n\n', 'utf8');

/** A client that reads, but falls this many times the buffer bound behind, is cut off too. */
const SLOW_READER_FACTOR = 8;

class StreamClient implements Subscriber {
  private readonly pending = new Map<string, { event: SequencedEvent; type: NodeEventType; node: NodeView }>();
  private leftoverAfterWrite = 0;
  private acknowledgedAtLastCheck = -1;

  constructor(private readonly res: http.ServerResponse, private readonly filter: StreamFilter,
    private readonly scope: StreamScope, private readonly bufferBytes: number) {}

  offer(event: SequencedEvent): void {
    const { nodes } = this.filter;
    const named = (n: NodeView): boolean => nodes!.has(n.uuid) || (n.name !== null && nodes!.has(n.name));
    if (nodes && !named(event.node) && !(event.previous && named(event.previous))) return;
    const seen = this.scope.viewOf(event);
    if (!seen || (this.filter.types && !this.filter.types.has(seen.type))) return;
    const key = `${event.node.uuid} ${seen.type}`;
    // Re-inserting moves the key last: a flush sends events in the order of their latest change.
    this.pending.delete(key);
    this.pending.set(key, { event, ...seen });
  }

  flush(): void {
    if (this.pending.size === 0) return;
    const frames = [...this.pending.values()].map(({ event, type, node }) => frame(event, type, node));
    this.pending.clear();
    this.write(frames);
  }

  heartbeat(): void {
    this.write([HEARTBEAT]);
  }

  end(): void {
    this.pending.clear();
    if (!this.res.destroyed) this.res.end();
  }

  couldBeStalled(): boolean {
    return !this.res.destroyed && this.res.socket !== null && this.res.socket.bytesWritten > this.bufferBytes;
  }

  /** Past the bound with nothing acknowledged since the previous check: the client stopped reading. */
  checkStall(unacknowledged: Map<string, number>): void {
    const socket = this.res.socket;
    if (!socket || this.res.destroyed) return;
    const key = connectionKey(socket.remoteAddress ?? '', socket.remotePort ?? 0, socket.localPort ?? 0);
    const inKernel = unacknowledged.get(key) ?? 0;
    const unread = inKernel + this.res.writableLength;
    const acknowledged = socket.bytesWritten - socket.writableLength - inKernel;
    const stalled = unread > this.bufferBytes && acknowledged <= this.acknowledgedAtLastCheck;
    this.acknowledgedAtLastCheck = acknowledged;
    if (stalled) this.cutOff(unread);
  }

  /**
   * A client is judged by what it left unread of earlier writes, and by whether it is reading at
   * all: one flush larger than the bound (a burst of changes) goes out whole to a client that reads;
   * a client past the bound that read nothing since the last write, or past SLOW_READER_FACTOR times
   * the bound however it reads, is cut off.
   */
  private write(frames: Buffer[]): void {
    if (this.res.destroyed) return;
    const leftover = this.res.writableLength;
    const drained = this.leftoverAfterWrite - leftover;
    if (leftover > this.bufferBytes && (drained <= 0 || leftover > this.bufferBytes * SLOW_READER_FACTOR)) {
      this.cutOff(leftover);
      return;
    }
    this.res.cork();
    for (const bytes of frames) this.res.write(bytes);
    this.res.uncork();
    this.leftoverAfterWrite = this.res.writableLength;
  }

  private cutOff(unread: number): void {
    log.warning(`Dashboard event stream to ${this.res.req.socket.remoteAddress ?? '?'} cut off: ${unread} bytes unread`);
    this.pending.clear();
    this.res.destroy();
  }
}

/** `user` identifies the caller for the per-user limit (null under noauth). */
export async function openEventStream(req: http.IncomingMessage, res: http.ServerResponse, auth: RequestAuth | undefined,
  user: string | null, settings: StreamSettings): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    sendError(res, 405, 'Method not allowed', { Allow: 'GET' });
    return;
  }
  const filter = parseFilter(new URL(req.url ?? '/', 'http://localhost'));
  if (typeof filter === 'string') {
    sendError(res, 400, filter);
    return;
  }
  let scope: StreamScope;
  try {
    scope = streamScope(auth);
  } catch (err) {
    if (!(err instanceof HTTPForbidden)) throw err;
    sendError(res, 403, err.message);
    return;
  }
  const release = settings.limits.acquire(user, req.socket.remoteAddress ?? '');
  if (!release) {
    sendError(res, 429, 'Too many open event streams', { 'Retry-After': '10' });
    return;
  }
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store, no-transform', 'X-Accel-Buffering': 'no',
  });
  if (req.method === 'HEAD') {
    release();
    res.end();
    return;
  }
  req.socket.setNoDelay(true);
  res.write('retry: 3000\n: connected\n\n');
  const client = new StreamClient(res, filter, scope, settings.bufferBytes);
  let unsubscribe: (() => void) | null = null;
  res.on('close', () => {
    release();
    unsubscribe?.();
  });
  try {
    unsubscribe = await settings.hub.subscribe(client);
  } catch (err) {
    log.error(`Dashboard event stream could not start: ${(err as Error).message}`);
    res.destroy();
    return;
  }
  if (res.destroyed) unsubscribe();
}
