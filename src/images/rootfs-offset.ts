/**
 * Where the root filesystem of a raw image starts, so extra_data can be injected into whole
 * disk images as well as bare filesystem (partition) images: offset 0 when the image is an
 * ext2/3/4 filesystem itself, else the largest ext partition of its MBR or GPT table.
 */
import { promises as fsp } from 'node:fs';

const SECTOR = 512;
const EXT_MAGIC_OFFSET = 1024 + 56;

interface Partition {
  start: number;
  size: number;
}

async function readAt(fh: fsp.FileHandle, offset: number, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(length);
  const { bytesRead } = await fh.read(buf, 0, length, offset);
  return buf.subarray(0, bytesRead);
}

async function isExt(fh: fsp.FileHandle, offset: number): Promise<boolean> {
  const magic = await readAt(fh, offset + EXT_MAGIC_OFFSET, 2);
  return magic.length === 2 && magic.readUInt16LE(0) === 0xef53;
}

async function gptPartitions(fh: fsp.FileHandle): Promise<Partition[]> {
  const header = await readAt(fh, SECTOR, 92);
  if (header.subarray(0, 8).toString('latin1') !== 'EFI PART') return [];
  const entriesLba = Number(header.readBigUInt64LE(72));
  const count = Math.min(header.readUInt32LE(80), 256);
  const entrySize = header.readUInt32LE(84);
  const table = await readAt(fh, entriesLba * SECTOR, count * entrySize);
  const out: Partition[] = [];
  for (let i = 0; i + entrySize <= table.length; i += entrySize) {
    const entry = table.subarray(i, i + entrySize);
    if (entry.subarray(0, 16).every((b) => b === 0)) continue;
    const first = Number(entry.readBigUInt64LE(32));
    const last = Number(entry.readBigUInt64LE(40));
    out.push({ start: first * SECTOR, size: (last - first + 1) * SECTOR });
  }
  return out;
}

async function mbrPartitions(fh: fsp.FileHandle): Promise<Partition[]> {
  const mbr = await readAt(fh, 0, SECTOR);
  if (mbr.length < SECTOR || mbr[510] !== 0x55 || mbr[511] !== 0xaa) return [];
  const out: Partition[] = [];
  for (let i = 0; i < 4; i++) {
    const entry = mbr.subarray(446 + i * 16, 462 + i * 16);
    if (entry[4] === 0) continue;
    if (entry[4] === 0xee) return gptPartitions(fh);
    out.push({ start: entry.readUInt32LE(8) * SECTOR, size: entry.readUInt32LE(12) * SECTOR });
  }
  return out;
}

/** Byte offset of the root filesystem, or null when the image holds no ext filesystem. */
export async function findRootFilesystemOffset(image: string): Promise<number | null> {
  const fh = await fsp.open(image, 'r');
  try {
    if (await isExt(fh, 0)) return 0;
    const candidates: Partition[] = [];
    for (const p of await mbrPartitions(fh)) if (await isExt(fh, p.start)) candidates.push(p);
    candidates.sort((a, b) => b.size - a.size);
    return candidates[0]?.start ?? null;
  } finally {
    await fh.close();
  }
}
