/**
 * An HTTP pass-through proxy that counts GET requests per path and remembers whether each
 * carried an X-Auth-Token: put between ironic-ts and a real service to see what it fetched.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CountingProxy {
  url: string;
  /** GET requests per path. */
  hits: Map<string, number>;
  /** Paths requested with an X-Auth-Token header. */
  authenticated: Set<string>;
  /** Points the proxy at another upstream (e.g. one started after its URL was published). */
  retarget(target: string): void;
  stop(): Promise<void>;
}

export async function startCountingProxy(target: string): Promise<CountingProxy> {
  let upstream = new URL(target);
  const hits = new Map<string, number>();
  const authenticated = new Set<string>();
  const server: Server = createServer((req, res) => {
    const p = req.url ?? '';
    if (req.method === 'GET') hits.set(p, (hits.get(p) ?? 0) + 1);
    if (req.headers['x-auth-token']) authenticated.add(p);
    const out = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: p, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    out.on('error', () => res.writeHead(502).end());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits, authenticated,
    retarget(next) {
      upstream = new URL(next);
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
