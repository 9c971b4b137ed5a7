/**
 * A host service (on the host's 127.0.0.1) made reachable inside a lab namespace on the
 * namespace's own 127.0.0.1, without giving the namespace a route out: the test process accepts on
 * a Unix socket in the lab's directory and connects to the host port; socat inside the namespace
 * listens on the loopback port and connects to that socket (a file, so it crosses namespaces).
 * The lab keeps its isolation; only the one port is carried.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as net from 'node:net';
import * as path from 'node:path';
import type { LabNetwork } from './network';

export interface HostBridge {
  stop(): Promise<void>;
}

function relayToHost(socketPath: string, hostPort: number): Promise<net.Server> {
  const server = net.createServer((inner) => {
    const outer = net.connect(hostPort, '127.0.0.1');
    inner.pipe(outer).pipe(inner);
    const close = (): void => { inner.destroy(); outer.destroy(); };
    inner.on('error', close);
    outer.on('error', close);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve(server));
  });
}

async function listening(lab: LabNetwork, port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 10_000;
  const [file, args] = lab.inside('ss', ['-Hltn', `sport = :${port}`]);
  for (;;) {
    const out = await new Promise<string>((resolve) => {
      const ss = spawn(file, args, { stdio: ['ignore', 'pipe', 'ignore'] });
      let text = '';
      ss.stdout.on('data', (d: Buffer) => { text += String(d); });
      ss.on('close', () => resolve(text));
    });
    if (out.trim()) return;
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`socat in ${lab.ns} never listened on ${port}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Host 127.0.0.1:hostPort answers inside the lab at 127.0.0.1:labPort while the bridge lives. */
export async function bridgeHostPort(lab: LabNetwork, dir: string, hostPort: number, labPort: number): Promise<HostBridge> {
  const socketPath = path.join(dir, `host-${hostPort}.sock`);
  const server = await relayToHost(socketPath, hostPort);
  const [file, args] = lab.inside('socat', [`TCP-LISTEN:${labPort},bind=127.0.0.1,fork,reuseaddr`, `UNIX-CONNECT:${socketPath}`]);
  const child = spawn(file, args, { stdio: 'ignore' });
  const stop = async (): Promise<void> => {
    child.kill('SIGKILL');
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  try {
    await listening(lab, labPort, child);
  } catch (err) {
    await stop();
    throw err;
  }
  return { stop };
}
