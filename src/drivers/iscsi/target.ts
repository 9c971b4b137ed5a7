/**
 * The deploy ramdisk's disk, reached as an iSCSI logical unit through a userspace initiator: qemu-img
 * with QEMU's libiscsi driver (Debian's qemu-block-extra), so no kernel initiator, login or device
 * node is needed; or, once the kernel's initiator has logged in (./iscsiadm.ts), through the LUN's
 * block device. Every write is one qemu-img run into a byte range of the LUN (QEMU's raw driver
 * with offset and size), bounded by a timeout.
 */
import { execFile } from 'node:child_process';

export interface IscsiTarget {
  /** The portal's address and port. */
  address: string;
  port: number;
  iqn: string;
  lun: number;
  /** The LUN's block device when the kernel's initiator is logged in; unset, libiscsi reaches it. */
  device?: string;
}

/** qemu-img's words for why it failed, without its usage noise. */
export class TargetIoError extends Error {}

/** QEMU option values double their commas. */
const optionValue = (v: string | number) => String(v).replaceAll(',', ',,');

function lunOptions(t: IscsiTarget): string {
  if (t.device !== undefined) return `file.driver=host_device,file.filename=${optionValue(t.device)}`;
  return [`file.driver=iscsi`, 'file.transport=tcp', `file.portal=${optionValue(`${t.address}:${t.port}`)}`,
    `file.target=${optionValue(t.iqn)}`, `file.lun=${t.lun}`].join(',');
}

/** The LUN as a QEMU block device, or the byte range [offset, offset + size) of it. */
function imageOpts(t: IscsiTarget, range?: { offset: number; size: number }): string {
  const raw = range ? `driver=raw,offset=${range.offset},size=${range.size}` : 'driver=raw';
  return `${raw},${lunOptions(t)}`;
}

/** qemu-img's last line, without its prefix and the option string it could not open. */
function reason(stderr: string, fallback: string): string {
  const last = stderr.trim().split('\n').pop() || fallback;
  return last.replace(/^qemu-img: /, '').replace(/^Could not open '[^']*': /, '');
}

function qemuImg(t: IscsiTarget, args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('qemu-img', args, { timeout: timeoutMs, maxBuffer: 1 << 20 }, (err, stdout, stderr) => {
      if (!err) return resolve(stdout);
      const killed = (err as NodeJS.ErrnoException & { killed?: boolean }).killed;
      const why = killed ? `no answer within ${timeoutMs / 1000} s` : reason(String(stderr), err.message);
      reject(new TargetIoError(`target ${t.iqn} lun ${t.lun} at ${t.address}:${t.port}: ${why}`));
    });
  });
}

/** The LUN's size in bytes. */
export async function lunSize(t: IscsiTarget, timeoutMs: number): Promise<number> {
  const out = await qemuImg(t, ['info', '--output=json', '--image-opts', imageOpts(t)], timeoutMs);
  const size = (JSON.parse(out) as { 'virtual-size'?: unknown })['virtual-size'];
  if (typeof size !== 'number') throw new TargetIoError('the target reported no size');
  return size;
}

interface WriteOptions {
  /** The source's format (qcow2 sources are converted on the fly). */
  format: string;
  /** Leave the source's zero blocks unwritten (a fresh filesystem's or swap's empty space). */
  skipZeroes?: boolean;
  timeoutMs: number;
}

/** Writes `file` into the LUN from `offset`, within a range of `size` bytes. */
export async function writeRange(t: IscsiTarget, file: string, offset: number, size: number, opts: WriteOptions): Promise<void> {
  const args = ['convert', '-n', '-f', opts.format, file, '--target-image-opts', imageOpts(t, { offset, size })];
  if (opts.skipZeroes) args.splice(2, 0, '--target-is-zero');
  await qemuImg(t, args, opts.timeoutMs);
}
