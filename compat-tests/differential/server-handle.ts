// What the harness needs from a started server, whichever implementation it is.
import * as fs from 'node:fs';

export interface ServerHandle {
  label: string;
  port: number;
  dir: string;
  /** Log file to point at when something goes wrong. */
  logPath: string;
  stop(): Promise<void>;
}

export class ServerStartError extends Error {
  constructor(label: string, detail: string) {
    super(`${label} did not start: ${detail}`);
    this.name = 'ServerStartError';
  }
}

/** Signals a process group we created (setsid/detached) and waits until its leader is gone. */
export async function killGroup(pid: number, timeoutMs = 10_000): Promise<void> {
  signal(-pid, 'SIGTERM');
  const deadline = Date.now() + timeoutMs;
  while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (alive(pid)) signal(-pid, 'SIGKILL');
}

function signal(target: number, sig: NodeJS.Signals): void {
  try {
    process.kill(target, sig);
  } catch {
    // already gone
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !isZombie(pid);
  } catch {
    return false;
  }
}

function isZombie(pid: number): boolean {
  try {
    return /\nState:\s+Z/.test(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

export function removeDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

/** The end of a log file, for error messages. */
export function readTail(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').slice(-2000);
  } catch {
    return '';
  }
}
