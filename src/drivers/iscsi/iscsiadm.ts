/**
 * The deploy ramdisk's disk through open-iscsi's kernel initiator, the way Ironic's iscsi deploy
 * reached it (deploy_utils before Xena): sendtargets discovery on the portal, login, the session
 * checked and the LUNs rescanned, /dev/disk/by-path/ip-<address>:<port>-iscsi-<iqn>-lun-<lun>
 * awaited, the work done on that block device, then logout and the node record deleted whatever
 * happened. Discovery, login, logout and delete are tried 5 times, as Ironic's were; the checks
 * `[iscsi]verify_attempts` times a second apart. Unlike Ironic, a failed login also deletes the
 * record discovery made, so nothing of the deploy is left in open-iscsi's database.
 */
import { execFile } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { log } from '../../common/log';
import { TargetIoError, type IscsiTarget } from './target';

export interface IscsiadmResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `iscsiadm args`; resolves with its exit code, rejects only when it cannot run or times out. */
type IscsiadmRunner = (args: string[], timeoutMs: number) => Promise<IscsiadmResult>;

export const runIscsiadm: IscsiadmRunner = (args, timeoutMs) => new Promise((resolve, reject) => {
  execFile('iscsiadm', args, { timeout: timeoutMs, maxBuffer: 1 << 20 }, (err, stdout, stderr) => {
    if (!err) return resolve({ code: 0, stdout, stderr });
    const e = err as NodeJS.ErrnoException & { killed?: boolean; code?: number | string };
    if (e.code === 'ENOENT') {
      return reject(new TargetIoError('iscsiadm is not installed (Debian\'s open-iscsi); install it or set [iscsi]initiator = qemu-img'));
    }
    if (e.killed) return reject(new TargetIoError(`iscsiadm ${args.join(' ')}: no answer within ${timeoutMs / 1000} s`));
    resolve({ code: typeof e.code === 'number' ? e.code : 1, stdout: String(stdout), stderr: String(stderr) });
  });
});

interface KernelSessionOptions {
  /** [iscsi]verify_attempts. */
  verifyAttempts: number;
  /** Bound on each iscsiadm run. */
  timeoutMs: number;
  run?: IscsiadmRunner;
  /** The pause before another try of a failed command (Ironic's: 0.2 to 2 s at random). */
  retryDelayMs?: () => number;
  /** The pause between two checks of the session or the device. */
  verifyDelayMs?: number;
  isBlockDevice?: (file: string) => Promise<boolean>;
}

const ATTEMPTS = 5;
/** iscsiadm's exit code when there is no such record (ISCSI_ERR_NO_OBJS_FOUND): nothing to delete. */
const NO_RECORDS = 21;

/** get_dev: the device udev names for the LUN. */
export function byPathDevice(t: IscsiTarget): string {
  return `/dev/disk/by-path/ip-${t.address}:${t.port}-iscsi-${t.iqn}-lun-${t.lun}`;
}

const portal = (t: IscsiTarget) => `${t.address.includes(':') ? `[${t.address}]` : t.address}:${t.port}`;

async function blockDevice(file: string): Promise<boolean> {
  return fsp.stat(file).then((s) => s.isBlockDevice(), () => false);
}

/** iscsiadm's words for why it failed: its last `iscsiadm:` line, or its exit code. */
function why(r: IscsiadmResult): string {
  const lines = `${r.stderr}\n${r.stdout}`.split('\n').map((l) => l.trim()).filter(Boolean);
  const own = lines.filter((l) => l.startsWith('iscsiadm:'));
  return `${(own.pop() ?? lines.pop() ?? 'no output').replace(/^iscsiadm: /, '')} (exit code ${r.code})`;
}

class Session {
  private readonly run: IscsiadmRunner;
  private readonly retryDelayMs: () => number;
  private readonly verifyDelayMs: number;

  constructor(private readonly t: IscsiTarget, private readonly o: KernelSessionOptions) {
    this.run = o.run ?? runIscsiadm;
    this.retryDelayMs = o.retryDelayMs ?? (() => 200 + Math.floor(Math.random() * 1800));
    this.verifyDelayMs = o.verifyDelayMs ?? 1000;
  }

  /** `iscsiadm args` until it exits with one of `ok`, at most `attempts` times; its output. */
  async exec(args: string[], ok: number[] = [0], attempts = 1): Promise<string> {
    let last: IscsiadmResult | undefined;
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      if (attempt > 1) await sleep(this.retryDelayMs());
      last = await this.run(args, this.o.timeoutMs);
      if (ok.includes(last.code)) return last.stdout;
    }
    throw new TargetIoError(`iscsiadm ${args.join(' ')} failed: ${why(last!)}`);
  }

  discover = () => this.exec(['-m', 'discovery', '-t', 'st', '-p', portal(this.t)], [0], ATTEMPTS);
  login = () => this.exec(['-m', 'node', '-p', portal(this.t), '-T', this.t.iqn, '--login'], [0], ATTEMPTS);
  logout = () => this.exec(['-m', 'node', '-p', portal(this.t), '-T', this.t.iqn, '--logout'], [0], ATTEMPTS);
  deleteRecord = () => this.exec(['-m', 'node', '-p', portal(this.t), '-T', this.t.iqn, '-o', 'delete'], [0, NO_RECORDS], ATTEMPTS);

  /** `check` until true, verify_attempts times a second apart, else `failure`. */
  private async verify(check: () => Promise<boolean>, failure: string): Promise<void> {
    for (let attempt = 1; attempt <= this.o.verifyAttempts; attempt += 1) {
      if (await check()) return;
      if (attempt < this.o.verifyAttempts) await sleep(this.verifyDelayMs);
    }
    throw new TargetIoError(`${failure} after attempting to verify ${this.o.verifyAttempts} times.`);
  }

  /** verify_iscsi_connection, force_iscsi_lun_update, check_file_system_for_iscsi_device. */
  async awaitDevice(device: string): Promise<void> {
    await this.verify(async () => (await this.exec(['-m', 'session'], [0, NO_RECORDS])).includes(this.t.iqn),
      'iSCSI connection did not become active');
    await this.exec(['-m', 'node', '-T', this.t.iqn, '-R']);
    const isBlock = this.o.isBlockDevice ?? blockDevice;
    await this.verify(() => isBlock(device), 'iSCSI connection was not seen by the file system');
  }

  /** Logout and delete, each failure only logged: the deploy's own error is the one to report. */
  async close(loggedIn: boolean): Promise<void> {
    const steps: Array<[string, () => Promise<string>]> = [['delete', this.deleteRecord]];
    if (loggedIn) steps.unshift(['logout', this.logout]);
    for (const [name, step] of steps) {
      try {
        await step();
      } catch (err) {
        log.warning(`Cleaning up the iSCSI session to ${this.t.iqn} at ${portal(this.t)} (${name}): ${(err as Error).message}`);
      }
    }
  }
}

/** Runs `work` on the LUN's block device through the kernel initiator; always logs out after. */
export async function withKernelSession<T>(t: IscsiTarget, o: KernelSessionOptions, work: (device: string) => Promise<T>): Promise<T> {
  const session = new Session(t, o);
  const device = byPathDevice(t);
  let loggedIn = false;
  try {
    await session.discover();
    await session.login();
    loggedIn = true;
    await session.awaitDevice(device);
    return await work(device);
  } finally {
    await session.close(loggedIn);
  }
}

async function onPath(command: string): Promise<boolean> {
  for (const dir of (process.env.PATH ?? '').split(':').filter(Boolean)) {
    if (await fsp.access(`${dir}/${command}`, fsp.constants.X_OK).then(() => true, () => false)) return true;
  }
  return false;
}

/**
 * [iscsi]initiator: `iscsiadm` always takes the kernel's initiator, `qemu-img` never, and `auto`
 * takes it when iscsiadm is installed and the kernel's iscsi_tcp transport is loaded (iscsid loads it).
 */
export async function useKernelInitiator(choice: string): Promise<boolean> {
  if (choice !== 'auto') return choice === 'iscsiadm';
  return await onPath('iscsiadm') && await fsp.access('/sys/module/iscsi_tcp').then(() => true, () => false);
}
