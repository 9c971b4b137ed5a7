/**
 * An iSCSI target served by Debian's tgtd (the daemon the iscsi deploy's ramdisk runs) on 127.0.0.1,
 * exporting a file as LUN 1 under a given IQN, as the ramdisk exports its disk. Each instance has
 * its own control port, so tests can run several side by side.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import { promisify } from 'node:util';
import { freePort } from './target';

const run = promisify(execFile);

export interface TgtTarget {
  port: number;
  /** tgtd's control port (tgtadm -C), for callers that run tgtadm themselves. */
  control: number;
  /** Exports `file` as LUN 1 of a new target `iqn` (the ramdisk's tgtadm calls). */
  exportDisk(iqn: string, file: string): Promise<void>;
  /** Removes the target `iqn` and its LUN (the ramdisk's teardown), forcibly. */
  removeDisk(iqn: string): Promise<void>;
  stop(): Promise<void>;
}

async function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1', () => { s.destroy(); resolve(true); });
    s.once('error', () => resolve(false));
  });
}

export async function startTgt(): Promise<TgtTarget> {
  const port = await freePort();
  const control = String(200 + Math.floor(Math.random() * 32_000)); // tgtd takes -C up to 32767
  fs.mkdirSync('/var/run/tgtd', { recursive: true });
  // Its output is drained and dropped (tgtd quits at start with stdout on /dev/null).
  const child: ChildProcess = spawn('tgtd', ['-f', '-C', control, '--iscsi', `portal=127.0.0.1:${port}`], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.resume();
  child.stderr?.resume();
  const deadline = Date.now() + 20_000;
  while (!(await listening(port))) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('tgtd did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  const tgtadm = (...args: string[]) => run('tgtadm', ['-C', control, '--lld', 'iscsi', ...args]);
  const tids = new Map<string, number>();
  let nextTid = 1;
  return {
    port,
    control: Number(control),
    async exportDisk(iqn, file) {
      const tid = nextTid++;
      tids.set(iqn, tid);
      await tgtadm('--op', 'new', '--mode', 'target', '--tid', String(tid), '-T', iqn);
      await tgtadm('--op', 'new', '--mode', 'logicalunit', '--tid', String(tid), '--lun', '1', '-b', file);
      await tgtadm('--op', 'bind', '--mode', 'target', '--tid', String(tid), '-I', 'ALL');
    },
    async removeDisk(iqn) {
      const tid = tids.get(iqn);
      if (tid === undefined) return;
      await tgtadm('--op', 'delete', '--mode', 'target', '--tid', String(tid), '--force');
      tids.delete(iqn);
    },
    async stop() {
      child.kill('SIGKILL');
      await new Promise((r) => (child.exitCode !== null ? r(undefined) : child.once('exit', r)));
    },
  };
}
