/**
 * Maps a TFTP filename onto a file inside the served root, refusing
 * anything that could escape it: `..` segments, and symlinks whose target
 * lies outside the root. A leading `/` is accepted (iPXE and grub send
 * absolute-looking names) and means "relative to the root"; a name that
 * repeats the root's own absolute path is accepted too, as tftpd-hpa's
 * usual map file does.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';

export class TftpPathError extends Error {
  override readonly name = 'TftpPathError';
  constructor(
    message: string,
    readonly kind: 'not-found' | 'access',
  ) {
    super(message);
  }
}

function isInside(root: string, candidate: string): boolean {
  return candidate === root || candidate.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/** Pure part: request name -> path relative to root (no filesystem access). */
function relativeRequestPath(rootAbs: string, requested: string): string {
  let name = requested.replace(/\\/g, '/');
  if (name.includes('\0')) throw new TftpPathError('NUL in filename', 'access');
  if (name.startsWith(rootAbs + '/')) name = name.slice(rootAbs.length);
  const segments = name.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.some((s) => s === '..')) throw new TftpPathError('parent directory reference refused', 'access');
  if (segments.length === 0) throw new TftpPathError('empty filename', 'not-found');
  return segments.join('/');
}

/** Resolves to a real path of a regular file inside root. */
export async function resolveInRoot(root: string, requested: string): Promise<string> {
  const rootReal = await fsp.realpath(root);
  const rel = relativeRequestPath(path.resolve(root), requested);
  const joined = path.join(rootReal, rel);
  let real: string;
  try {
    real = await fsp.realpath(joined);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new TftpPathError('file not found', 'not-found');
    throw new TftpPathError(`cannot resolve: ${code ?? 'error'}`, 'access');
  }
  if (!isInside(rootReal, real)) throw new TftpPathError('path leaves the served root', 'access');
  const st = await fsp.stat(real);
  if (!st.isFile()) throw new TftpPathError('not a regular file', 'access');
  return real;
}
