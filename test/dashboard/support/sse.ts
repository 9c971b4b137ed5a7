/** A server-sent events client over a real socket (node:http), collecting `node` events for tests. */
import * as http from 'node:http';

export interface StreamEvent {
  id: string;
  type: string;
  node: Record<string, unknown> & { uuid: string; name: string | null; provision_state: string | null };
  history?: Record<string, unknown>;
}

export interface SseClient {
  status: number;
  headers: http.IncomingHttpHeaders;
  events: StreamEvent[];
  /** Comment lines seen (heartbeats). */
  comments: string[];
  /** Resolves when the server ends or drops the stream. */
  ended: Promise<void>;
  /** Resolves with the first event (already received or to come) matching `match`. */
  waitFor(match: (e: StreamEvent) => boolean, timeoutMs?: number, what?: string): Promise<StreamEvent>;
  close(): void;
}

export function openSse(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { Accept: 'text/event-stream', ...headers } }, (res) => {
      const events: StreamEvent[] = [];
      const comments: string[] = [];
      const waiters = new Set<() => void>();
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let id = '';
          let data = '';
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments.push(line.slice(1).trim());
            else if (line.startsWith('id: ')) id = line.slice(4);
            else if (line.startsWith('data: ')) data += line.slice(6);
          }
          if (data) events.push({ id, ...(JSON.parse(data) as Omit<StreamEvent, 'id'>) });
        }
        for (const wake of [...waiters]) wake();
      });
      res.on('error', () => undefined);
      const ended = new Promise<void>((done) => res.once('close', () => done()));
      resolve({
        ended,
        status: res.statusCode ?? 0,
        headers: res.headers,
        events,
        comments,
        waitFor(match, timeoutMs = 20000, what = 'event') {
          return new Promise((done, fail) => {
            const check = (): void => {
              const found = events.find(match);
              if (!found) return;
              waiters.delete(check);
              clearTimeout(timer);
              done(found);
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              fail(new Error(`no ${what} within ${timeoutMs} ms; got ${JSON.stringify(events.map((e) => [e.type, e.node.name, e.node.provision_state]))}`));
            }, timeoutMs);
            waiters.add(check);
            check();
          });
        },
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
  });
}
