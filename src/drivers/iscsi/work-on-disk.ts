/**
 * Writing a node's disk over iSCSI as Ironic's deploy_utils.work_on_disk did: the disk's metadata
 * destroyed, the msdos label written, then the configdrive, the root partition image, swap
 * (mkswap, label swap1) and the ephemeral filesystem (label ephemeral0) into their partitions. A
 * whole-disk image is written from the first byte instead. Filesystems are made on sparse local
 * files and copied without their empty space, so a large swap or ephemeral costs little.
 */
import { execFile } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { buildLabel, planPartitions, type Partition, type PartitionRole } from './partitions';
import { lunSize, writeRange, type IscsiTarget } from './target';

const MIB = 1024 * 1024;
/** destroy_disk_metadata: 36 sectors at each end (MBR/GPT and the backup GPT, RAID and LVM labels). */
const METADATA_BYTES = 36 * 512;

/** What makes the deploy fail, in the words last_error carries. */
export class DiskWriteError extends Error {}

interface DiskJob {
  target: IscsiTarget;
  /** The instance image on the conductor, raw. */
  image: string;
  wholeDisk: boolean;
  rootMb: number;
  swapMb: number;
  ephemeralMb: number;
  ephemeralFormat: string;
  /** The configdrive ISO, when the deploy has one. */
  configdrive: Buffer | null;
  /** Scratch space on the conductor, removed by the caller. */
  workDir: string;
  timeoutMs: number;
}

function run(file: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { timeout: 600_000 }, (err, stdout, stderr) =>
      (err ? reject(new DiskWriteError(`${file} failed: ${String(stderr).trim() || err.message}`)) : resolve(stdout)));
  });
}

async function sparseFile(file: string, bytes: number): Promise<void> {
  const handle = await fsp.open(file, 'w');
  try {
    await handle.truncate(bytes);
  } finally {
    await handle.close();
  }
}

/** utils.mkfs: swap gets mkswap, FAT its -n label, the rest -L (ext* forced onto a plain file). */
function mkfsArgs(fs: string, file: string, label: string): [string, string[]] {
  if (fs === 'swap') return ['mkswap', ['-L', label, file]];
  if (fs === 'vfat' || fs === 'msdos') return ['mkfs', ['-t', fs, '-n', label, file]];
  return ['mkfs', ['-t', fs, ...(fs.startsWith('ext') ? ['-F', '-q'] : []), '-L', label, file]];
}

async function makeFilesystem(job: DiskJob, part: Partition, fs: string, label: string): Promise<void> {
  const file = path.join(job.workDir, part.role);
  await sparseFile(file, part.size);
  const [cmd, args] = mkfsArgs(fs, file, label);
  await run(cmd, args);
  await writeRange(job.target, file, part.offset, part.size, { format: 'raw', skipZeroes: true, timeoutMs: job.timeoutMs });
}

/** block_uuid: the filesystem UUID blkid reads in the root partition image. */
async function rootUuid(image: string): Promise<string> {
  const uuid = (await run('blkid', ['-s', 'UUID', '-o', 'value', image]).catch(() => '')).trim();
  if (!uuid) throw new DiskWriteError('Failed to detect root device UUID.');
  return uuid;
}

/** The MBR's disk signature (bytes 440-443) as pxe_utils' DISK_IDENTIFIER wants it: 0x%08x. */
async function diskIdentifier(image: string): Promise<string> {
  const handle = await fsp.open(image, 'r');
  try {
    const buf = Buffer.alloc(4);
    await handle.read(buf, 0, 4, 440);
    return `0x${buf.readUInt32LE(0).toString(16).padStart(8, '0')}`;
  } finally {
    await handle.close();
  }
}

async function zeroRange(job: DiskJob, offset: number, size: number): Promise<void> {
  const file = path.join(job.workDir, `zero-${offset}`);
  await fsp.writeFile(file, Buffer.alloc(size));
  await writeRange(job.target, file, offset, size, { format: 'raw', timeoutMs: job.timeoutMs });
}

async function writeWholeDisk(job: DiskJob, diskBytes: number): Promise<string> {
  if (job.configdrive) {
    throw new DiskWriteError('the iscsi deploy writes a configdrive only into the partitions of a partition image');
  }
  const imageBytes = (await fsp.stat(job.image)).size;
  if (imageBytes > diskBytes) throw new DiskWriteError(`the image (${imageBytes} bytes) is larger than the disk (${diskBytes} bytes)`);
  await zeroRange(job, diskBytes - METADATA_BYTES, METADATA_BYTES);
  await writeRange(job.target, job.image, 0, diskBytes, { format: 'raw', timeoutMs: job.timeoutMs });
  return diskIdentifier(job.image);
}

function partitionOf(parts: readonly Partition[], role: PartitionRole): Partition | undefined {
  return parts.find((p) => p.role === role);
}

async function writePartitions(job: DiskJob, diskBytes: number): Promise<string> {
  // An image without a filesystem UUID could not be booted with root=UUID=: refuse before writing.
  const uuid = await rootUuid(job.image);
  const imageMb = Math.ceil((await fsp.stat(job.image)).size / MIB);
  const configdriveMb = job.configdrive ? Math.ceil(job.configdrive.length / MIB) : 0;
  const request = { rootMb: Math.max(job.rootMb, imageMb), swapMb: job.swapMb, ephemeralMb: job.ephemeralMb, configdriveMb };
  const parts = planPartitions(request, diskBytes);
  if (!parts) {
    throw new DiskWriteError(`the partitions (root ${request.rootMb} MiB, swap ${request.swapMb} MiB, ephemeral ` +
      `${request.ephemeralMb} MiB, configdrive ${configdriveMb} MiB) do not fit the ${Math.floor(diskBytes / MIB)} MiB disk`);
  }
  await zeroRange(job, diskBytes - METADATA_BYTES, METADATA_BYTES);
  await writeRange(job.target, await buildLabel(parts, diskBytes, job.workDir), 0, MIB, { format: 'raw', timeoutMs: job.timeoutMs });
  const configdrivePart = partitionOf(parts, 'configdrive');
  if (configdrivePart && job.configdrive) {
    const iso = path.join(job.workDir, 'configdrive.iso');
    await fsp.writeFile(iso, job.configdrive);
    await writeRange(job.target, iso, configdrivePart.offset, configdrivePart.size, { format: 'raw', timeoutMs: job.timeoutMs });
  }
  const root = partitionOf(parts, 'root')!;
  await writeRange(job.target, job.image, root.offset, root.size, { format: 'raw', timeoutMs: job.timeoutMs });
  const swap = partitionOf(parts, 'swap');
  if (swap) await makeFilesystem(job, swap, 'swap', 'swap1');
  const ephemeral = partitionOf(parts, 'ephemeral');
  if (ephemeral) await makeFilesystem(job, ephemeral, job.ephemeralFormat, 'ephemeral0');
  return uuid;
}

/** The disk written; the root partition's UUID, or a whole-disk image's disk identifier. */
export async function workOnDisk(job: DiskJob): Promise<string> {
  const diskBytes = await lunSize(job.target, job.timeoutMs);
  return job.wholeDisk ? writeWholeDisk(job, diskBytes) : writePartitions(job, diskBytes);
}
