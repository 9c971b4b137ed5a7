// A raw TCP "BMC" that answers with whatever the current behaviour writes: garbage, huge or truncated
// bodies, drips, silence, resets. It reads the request head so the behaviour can see what was asked.

import net, { AddressInfo, Socket } from 'node:net';

export type Behaviour = (socket: Socket, requestHead: string) => void;

export interface HostileServer {
  url: string;
  /** Connections accepted so far. */
  readonly connections: () => number;
  setBehaviour(b: Behaviour): void;
  stop(): Promise<void>;
}

const MAX_HEAD = 64 * 1024;

export async function startHostileServer(): Promise<HostileServer> {
  let behaviour: Behaviour = (s) => s.destroy();
  let count = 0;
  const sockets = new Set<Socket>();
  const server = net.createServer((socket) => {
    count += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let head = '';
    const onData = (chunk: Buffer): void => {
      head += chunk.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end < 0 && head.length < MAX_HEAD) return;
      socket.off('data', onData);
      // Keep draining any request body so the client's write never blocks.
      socket.on('data', () => undefined);
      behaviour(socket, head.slice(0, end < 0 ? head.length : end));
    };
    socket.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => count,
    setBehaviour: (b) => {
      behaviour = b;
    },
    stop: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export function httpHead(status: number, headers: Record<string, string | number>): string {
  const lines = [`HTTP/1.1 ${status} X`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), '', ''];
  return lines.join('\r\n');
}

/** Writes a complete response (Content-Length set) and closes the connection. */
export function respond(socket: Socket, status: number, body: string | Buffer, headers: Record<string, string | number> = {}): void {
  const payload = typeof body === 'string' ? Buffer.from(body) : body;
  socket.end(Buffer.concat([Buffer.from(httpHead(status, { 'Content-Type': 'application/json', 'Content-Length': payload.length, Connection: 'close', ...headers })), payload]));
}

