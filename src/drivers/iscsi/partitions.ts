/**
 * The partition-image disk layout of Ironic's work_on_disk (deploy_utils / ironic-lib make_partitions):
 * an msdos label, partitions from 1 MiB on, in the order ephemeral, swap, configdrive, and root
 * last so tools like growroot can extend it to the end of the disk. The table is made by util-linux's
 * sfdisk on a sparse local file the disk's size, and only its first MiB (the label) goes to the disk.
 */
import { execFile } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';

const MIB = 1024 * 1024;
const SECTOR = 512;

export type PartitionRole = 'ephemeral' | 'swap' | 'configdrive' | 'root';

export interface Partition {
  role: PartitionRole;
  /** 1-based, as /dev/sdaN. */
  number: number;
  offset: number;
  size: number;
}

interface LayoutRequest {
  rootMb: number;
  swapMb: number;
  ephemeralMb: number;
  configdriveMb: number;
}

/** Partitions back to back from 1 MiB; null when they do not fit a disk of `diskBytes`. */
export function planPartitions(req: LayoutRequest, diskBytes: number): Partition[] | null {
  const wanted: Array<[PartitionRole, number]> = [
    ['ephemeral', req.ephemeralMb], ['swap', req.swapMb], ['configdrive', req.configdriveMb], ['root', req.rootMb],
  ];
  const parts: Partition[] = [];
  let offset = MIB;
  for (const [role, mb] of wanted) {
    if (mb <= 0) continue;
    parts.push({ role, number: parts.length + 1, offset, size: mb * MIB });
    offset += mb * MIB;
  }
  return offset <= diskBytes ? parts : null;
}

const PARTITION_TYPE: Readonly<Record<PartitionRole, string>> = { ephemeral: '83', swap: '82', configdrive: '83', root: '83' };

function sfdiskScript(parts: readonly Partition[]): string {
  const lines = parts.map((p) => `start=${p.offset / SECTOR}, size=${p.size / SECTOR}, type=${PARTITION_TYPE[p.role]}`);
  return ['label: dos', 'unit: sectors', ...lines, ''].join('\n');
}

function sfdisk(file: string, script: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = execFile('sfdisk', ['--no-reread', '--no-tell-kernel', '--quiet', file], (err, _out, stderr) =>
      (err ? reject(new Error(`sfdisk: ${String(stderr).trim() || err.message}`)) : resolve()));
    child.stdin?.end(script);
  });
}

/** The disk's first MiB holding the msdos label for `parts`, written to `workDir`/label; its path. */
export async function buildLabel(parts: readonly Partition[], diskBytes: number, workDir: string): Promise<string> {
  const disk = path.join(workDir, 'disk-layout');
  await fsp.rm(disk, { force: true });
  const handle = await fsp.open(disk, 'w');
  await handle.truncate(diskBytes);
  await handle.close();
  try {
    await sfdisk(disk, sfdiskScript(parts));
    const label = path.join(workDir, 'label');
    const buf = Buffer.alloc(MIB);
    const src = await fsp.open(disk, 'r');
    try {
      await src.read(buf, 0, MIB, 0);
    } finally {
      await src.close();
    }
    await fsp.writeFile(label, buf);
    return label;
  } finally {
    await fsp.rm(disk, { force: true });
  }
}
