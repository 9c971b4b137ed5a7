/**
 * Image format detection and qcow2 -> raw conversion with qemu-img.
 * The format is detected from the header magic ourselves and passed to
 * qemu-img explicitly: letting qemu-img probe untrusted images is unsafe
 * (a raw image can pose as qcow2 with a backing file).
 */
import { execFile } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import { promisify } from 'node:util';

const run = promisify(execFile);

export type ImageFormat = 'qcow2' | 'vmdk' | 'vhdx' | 'vdi' | 'iso' | 'raw';

export class ImageConversionError extends Error {
  override readonly name = 'ImageConversionError';
}

async function readAt(file: string, offset: number, length: number): Promise<Buffer> {
  const fh = await fsp.open(file, 'r');
  try {
    const buf = Buffer.alloc(length);
    const { bytesRead } = await fh.read(buf, 0, length, offset);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

export async function detectImageFormat(file: string): Promise<ImageFormat> {
  const head = await readAt(file, 0, 512);
  if (head.subarray(0, 4).equals(Buffer.from([0x51, 0x46, 0x49, 0xfb]))) return 'qcow2';
  if (head.subarray(0, 4).toString('latin1') === 'KDMV') return 'vmdk';
  if (head.subarray(0, 8).toString('latin1') === 'vhdxfile') return 'vhdx';
  if (head.subarray(64, 68).equals(Buffer.from([0x7f, 0x10, 0xda, 0xbe]))) return 'vdi';
  const pvd = await readAt(file, 0x8001, 5);
  if (pvd.toString('latin1') === 'CD001') return 'iso';
  return 'raw';
}

/** Converts `src` (of format `from`) into a raw image at `dest`. */
export async function convertToRaw(src: string, dest: string, from?: ImageFormat): Promise<void> {
  const format = from ?? (await detectImageFormat(src));
  if (format === 'iso') throw new ImageConversionError('ISO images are not converted');
  try {
    await run('qemu-img', ['convert', '-f', format, '-O', 'raw', src, dest], { maxBuffer: 1024 * 1024 });
  } catch (err) {
    await fsp.rm(dest, { force: true });
    throw new ImageConversionError(`qemu-img convert of ${src} failed: ${(err as Error).message}`);
  }
}
