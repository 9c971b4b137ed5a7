// Stopping a server that runs as the leader of a process group of its own (setsid, detached).
import * as fs from 'node:fs';

/** Signals the group led by pid, then waits until the leader is gone (SIGKILL after timeoutMs). */
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
