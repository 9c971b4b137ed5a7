/**
 * An HTTP image server inside a lab namespace whose downloads never finish (see
 * stalling-image-server-main.ts): a test knows the agent is inside `write_image` for as long as
 * it wants, instead of racing a download that may end in a second.
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import * as readline from 'node:readline';
import type { LabNetwork } from './network';

export interface StallingImageServer {
  url: string;
  /** Resolves on the first GET of the image (the agent started downloading it). */
  downloadStarted: Promise<void>;
  stop(): void;
}

export async function startStallingImageServer(net: LabNetwork, file: string, port: number): Promise<StallingImageServer> {
  const [cmd, args] = net.inside(process.execPath, [path.join(__dirname, 'stalling-image-server-main.js'), file, net.address, String(port)]);
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: child.stdout });
  const seen = (want: RegExp): Promise<void> => new Promise((resolve, reject) => {
    lines.on('line', (line) => { if (want.test(line)) resolve(); });
    child.once('exit', (code) => reject(new Error(`the stalling image server exited (${code})`)));
  });
  const downloadStarted = seen(/^GET /);
  downloadStarted.catch(() => undefined);
  await seen(/^listening$/);
  return { url: `http://${net.address}:${port}/marker.img`, downloadStarted, stop: () => child.kill('SIGKILL') };
}
