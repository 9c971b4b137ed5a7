/**
 * The smallest disk that boots a real kernel in the lab: an MBR (syslinux's) and one FAT partition
 * with syslinux, a kernel and a syslinux.cfg giving it `append`. No initrd: the kernel prints its
 * banner and command line on ttyS0 within seconds, then stops at the missing root file system. What
 * a test needs when it only wants the VM to write something of its choosing to the serial port.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { formatBootPartition, installBootloader, MIB, SECTOR } from './marker-image';
import { sh } from './network';

export async function buildKernelDisk(dir: string, kernel: string, append: string): Promise<string> {
  const work = path.join(dir, 'kernel-disk');
  await fsp.mkdir(work, { recursive: true });
  const bootMiB = 16;
  const start = MIB / SECTOR;
  const fat = await formatBootPartition(work, bootMiB, start);
  const disk = path.join(dir, 'kernel-disk.raw');
  await sh('truncate', ['-s', `${1 + bootMiB}M`, disk]);
  await sh('sh', ['-c', `printf 'label: dos\\nstart=${start}, size=${(bootMiB * MIB) / SECTOR}, type=e, bootable\\n' | sfdisk -q '${disk}'`]);
  await sh('dd', [`if=${fat}`, `of=${disk}`, `bs=${SECTOR}`, `seek=${start}`, 'conv=notrunc,sparse', 'status=none']);
  const cfg = path.join(work, 'syslinux.cfg');
  await fsp.writeFile(cfg, `SERIAL 0 115200\nDEFAULT k\nLABEL k\n  KERNEL vmlinuz\n  APPEND ${append}\n`);
  await installBootloader(disk, start * SECTOR, [[kernel, 'vmlinuz'], [cfg, 'syslinux.cfg']]);
  await sh('dd', ['if=/usr/lib/syslinux/mbr/mbr.bin', `of=${disk}`, 'bs=440', 'count=1', 'conv=notrunc', 'status=none']);
  await fsp.rm(work, { recursive: true, force: true });
  return disk;
}
