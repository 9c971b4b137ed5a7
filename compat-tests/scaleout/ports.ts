/** Waiting for a loopback TCP port to open or close, with a bounded deadline. */
import * as net from 'node:net';

export class PortWaitTimeout extends Error {
  constructor(port: number, wanted: 'open' | 'closed', ms: number) {
    super(`127.0.0.1:${port} did not become ${wanted} within ${ms} ms`);
    this.name = 'PortWaitTimeout';
  }
}

export function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = net.connect({ host: '127.0.0.1', port });
    const done = (ok: boolean) => {
      sock.destroy();
      resolve(ok);
    };
    sock.setTimeout(1000, () => done(false));
    sock.once('connect', () => done(true));
    sock.once('error', () => done(false));
  });
}

export async function waitForPort(port: number, wanted: 'open' | 'closed', ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if ((await portAnswers(port)) === (wanted === 'open')) return;
    await sleep(200);
  }
  throw new PortWaitTimeout(port, wanted, ms);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
