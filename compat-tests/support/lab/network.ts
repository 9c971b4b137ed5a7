/**
 * The lab's network: a network namespace of its own with a bridge (the provisioning network, with
 * an address) and the VM's tap device on it, and no uplink, so nothing a test's VM sends leaves the
 * namespace. Servers run inside it through `ip netns exec`; each namespace has its own loopback, so
 * fixed ports (69, 6385, 623...) never clash with other tests.
 */
import { execFile } from 'node:child_process';

export interface LabNetwork {
  ns: string;
  bridge: string;
  tap: string;
  /** The bridge's address (the conductor's on the provisioning network). */
  address: string;
  prefix: number;
  /** The command running `file args` inside the namespace. */
  inside(file: string, args: readonly string[]): [string, string[]];
  /** Kills what still runs in the namespace (all of it started by the test), then deletes it. */
  destroy(): Promise<void>;
}

export function sh(file: string, args: readonly string[], timeout = 60_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { timeout, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${file} ${args.join(' ')}: ${String(stderr) || err.message}`));
      else resolve(String(stdout));
    });
  });
}

/** Whether this machine lets a test build a lab: root, /dev/net/tun and `ip netns`. */
export function labUnavailable(): string | null {
  if (process.getuid?.() !== 0) return 'needs root (network namespaces, tap devices)';
  return null;
}

async function killAllIn(ns: string): Promise<void> {
  const pids = (await sh('ip', ['netns', 'pids', ns]).catch(() => '')).split(/\s+/).filter(Boolean).map(Number);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch { /* already gone */ }
  }
}

export async function createLabNetwork(opts: { name: string; address?: string; prefix?: number }): Promise<LabNetwork> {
  const ns = `${opts.name}-${process.pid}`;
  const address = opts.address ?? '172.31.99.1';
  const prefix = opts.prefix ?? 24;
  const bridge = 'br-lab';
  const tap = 'tap-vm';
  const ip = (...args: string[]): Promise<string> => sh('ip', ['-n', ns, ...args]);
  await sh('ip', ['netns', 'add', ns]);
  const destroy = async (): Promise<void> => {
    await killAllIn(ns);
    await sh('ip', ['netns', 'delete', ns]).catch(() => undefined);
  };
  try {
    await ip('link', 'set', 'lo', 'up');
    await ip('link', 'add', bridge, 'type', 'bridge', 'forward_delay', '0', 'stp_state', '0');
    await ip('address', 'add', `${address}/${prefix}`, 'dev', bridge);
    await ip('link', 'set', bridge, 'up');
    await ip('tuntap', 'add', 'dev', tap, 'mode', 'tap');
    await ip('link', 'set', tap, 'master', bridge);
    await ip('link', 'set', tap, 'up');
  } catch (err) {
    await destroy();
    throw err;
  }
  return {
    ns, bridge, tap, address, prefix,
    inside: (file, args) => ['ip', ['netns', 'exec', ns, file, ...args]],
    destroy,
  };
}
