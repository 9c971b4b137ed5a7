/**
 * Maps a request path to a file inside the served root. Refuses anything that leaves the root:
 * `..` segments (also percent-encoded), NUL bytes, and symlinks whose target is outside.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';

type ResolveFailure = 'bad-request' | 'forbidden' | 'not-found';

export class HttpPathError extends Error {
  override readonly name = 'HttpPathError';
  constructor(readonly kind: ResolveFailure) {
    super(kind);
  }
}

function decodePath(rawUrl: string): string {
  const pathname = rawUrl.split('?', 1)[0]!.split('#', 1)[0]!;
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    throw new HttpPathError('bad-request');
  }
  if (decoded.includes('\0') || decoded.includes('\\')) throw new HttpPathError('forbidden');
  if (decoded.split('/').includes('..')) throw new HttpPathError('forbidden');
  return decoded;
}

export async function resolveRequestPath(realRoot: string, rawUrl: string): Promise<{ file: string; size: number; mtime: Date }> {
  const rel = decodePath(rawUrl);
  const candidate = path.join(realRoot, rel);
  let real: string;
  try {
    real = await fsp.realpath(candidate);
  } catch {
    throw new HttpPathError('not-found');
  }
  if (real !== realRoot && !real.startsWith(realRoot + path.sep)) throw new HttpPathError('forbidden');
  const st = await fsp.stat(real).catch(() => undefined);
  if (!st?.isFile()) throw new HttpPathError('not-found');
  return { file: real, size: st.size, mtime: st.mtime };
}
