// Random port in 17000-17999 (the range the project reserves for helpers), checked free by binding it.
import * as net from 'node:net';

const LOW = 17000;
const SPAN = 1000;

export async function pickFreePort(exclude: ReadonlySet<number> = new Set()): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = LOW + Math.floor(Math.random() * SPAN);
    if (!exclude.has(port) && (await isFree(port))) return port;
  }
  throw new Error('no free port found in 17000-17999');
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}
