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

/** Each event's text, built once per variant (as stored or redacted) and shared by all streams. */
const framed = new WeakMap<SequencedEvent, Map<NodeView, string>>();

function frame(event: SequencedEvent, node: NodeView): string {
  let variants = framed.get(event);
  if (!variants) framed.set(event, variants = new Map());
  let text = variants.get(node);
  if (text === undefined) {
    const data = { type: event.type, node, ...(event.history ? { history: event.history } : {}) };
    text = `id: ${event.seq}\nevent: node\ndata: ${JSON.stringify(data)}\n\n`;
    variants.set(node, text);
  }
  return text;
}

class StreamClient implements Subscriber {
  private readonly pending = new Map<string, { event: SequencedEvent; node: NodeView }>();

  constructor(private readonly res: http.ServerResponse, private readonly filter: StreamFilter,
    private readonly scope: StreamScope, private readonly bufferBytes: number) {}

  offer(event: SequencedEvent): void {
    if (this.filter.types && !this.filter.types.has(event.type)) return;
    const { nodes } = this.filter;
    if (nodes && !nodes.has(event.node.uuid) && !(event.node.name !== null && nodes.has(event.node.name))) return;
    const node = this.scope.viewOf(event);
    if (!node) return;
    const key = `${event.node.uuid} ${event.type}`;
    // Re-inserting moves the key last: a flush sends events in the order of their latest change.
    this.pending.delete(key);
    this.pending.set(key, { event, node });
  }

  flush(): void {
    if (this.pending.size === 0) return;
    let text = '';
    for (const { event, node } of this.pending.values()) text += frame(event, node);
    this.pending.clear();
    this.write(text);
  }

  heartbeat(): void {
    this.write(': heartbeat\n\n');
  }

  end(): void {
    this.pending.clear();
    if (!this.res.destroyed) this.res.end();
  }

  couldBeStalled(): boolean {
    return !this.res.destroyed && this.res.socket !== null && this.res.socket.bytesWritten > this.bufferBytes;
  }

  checkStall(unacknowledged: Map<string, number>): void {
    const socket = this.res.socket;
    if (!socket || this.res.destroyed) return;
    const key = connectionKey(socket.remoteAddress ?? '', socket.remotePort ?? 0, socket.localPort ?? 0);
    const unread = (unacknowledged.get(key) ?? 0) + this.res.writableLength;
    if (unread > this.bufferBytes) this.cutOff(unread);
  }

  private write(text: string): void {
    if (this.res.destroyed) return;
    this.res.write(text);
    if (this.res.writableLength > this.bufferBytes) this.cutOff(this.res.writableLength);
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
