/**
 * Applies extra_data (see extra-data-schema.ts) to a raw image holding an
 * ext2/3/4 root filesystem, without root privileges: the root password
 * goes into /etc/shadow as a SHA-512 crypt hash and files are written with
 * debugfs. Always works on a copy so the cached master image stays intact.
 */
import { constants, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { DebugfsError, checkFilesystem, readFile, statPath, writeFiles, type FsTarget, type WriteSpec } from './debugfs';
import { validateExtraData, type ExtraData } from './extra-data-schema';
import { sha512Crypt } from '../common/sha-crypt';

export class InjectionError extends Error {
  override readonly name = 'InjectionError';
}

interface InjectOptions {
  /** Byte offset of the root filesystem inside the image (0 for a bare fs). */
  offset?: number;
  /** Fixed salt (tests); random otherwise. */
  salt?: string;
  now?: Date;
}

interface InjectResult {
  image: string;
  passwordSet: boolean;
  files: string[];
}

/** Sets root's hash and last-change day (field 3), as nova's injection did. */
export function setRootPassword(shadow: string, hash: string, now: Date): string {
  let found = false;
  const days = Math.floor(now.getTime() / 86_400_000);
  const lines = shadow.split('\n').map((line) => {
    const f = line.split(':');
    if (f[0] !== 'root' || f.length < 3) return line;
    found = true;
    f[1] = hash;
    f[2] = String(days);
    return f.join(':');
  });
  if (!found) throw new InjectionError('no root entry in /etc/shadow');
  return lines.join('\n');
}

async function shadowSpec(t: FsTarget, password: string, opts: InjectOptions): Promise<WriteSpec> {
  const info = await statPath(t, '/etc/shadow');
  if (!info) throw new InjectionError('/etc/shadow not found in the image');
  const text = (await readFile(t, '/etc/shadow')).toString('utf8');
  const hash = sha512Crypt(password, opts.salt);
  const data = Buffer.from(setRootPassword(text, hash, opts.now ?? new Date()), 'utf8');
  return { path: '/etc/shadow', data, mode: info.mode & 0o7777, uid: info.uid, gid: info.gid };
}

function fileSpecs(data: ExtraData): WriteSpec[] {
  return (data.files ?? []).map((f) => ({ path: path.posix.normalize(f.path), data: Buffer.from(f.contents, 'base64'), mode: 0o644, uid: 0, gid: 0 }));
}

async function copyImage(source: string, dest: string): Promise<void> {
  if (path.resolve(source) === path.resolve(dest)) throw new InjectionError('refusing to modify the source image in place');
  try {
    // A reflink where the filesystem offers one, a plain copy otherwise.
    await fsp.copyFile(source, dest, constants.COPYFILE_FICLONE);
  } catch (err) {
    throw new InjectionError(`cannot copy ${source}: ${(err as Error).message}`);
  }
}

/** Copies sourceImage to destImage and injects extraData into the copy. */
export async function injectExtraData(sourceImage: string, destImage: string, extraData: unknown, opts: InjectOptions = {}): Promise<InjectResult> {
  const data = validateExtraData(extraData);
  const wanted = data.admin_pass !== undefined || (data.files?.length ?? 0) > 0;
  if (wanted && data.os_type === 'windows') throw new InjectionError('injection into Windows images is not supported');
  await copyImage(sourceImage, destImage);
  if (!wanted) return { image: destImage, passwordSet: false, files: [] };
  const t: FsTarget = opts.offset ? { image: destImage, offset: opts.offset } : { image: destImage };
  try {
    await checkFilesystem(t);
    const specs = fileSpecs(data);
    // The password wins over a /etc/shadow passed in files: written last.
    if (data.admin_pass !== undefined) {
      const files = specs.filter((s) => s.path !== '/etc/shadow');
      if (files.length !== specs.length) await writeFiles(t, specs.filter((s) => s.path === '/etc/shadow'));
      specs.length = 0;
      specs.push(...files, await shadowSpec(t, data.admin_pass, opts));
    }
    await writeFiles(t, specs);
    return { image: destImage, passwordSet: data.admin_pass !== undefined, files: fileSpecs(data).map((s) => s.path) };
  } catch (err) {
    await fsp.rm(destImage, { force: true });
    if (err instanceof InjectionError) throw err;
    if (err instanceof DebugfsError) throw new InjectionError(err.message);
    throw err;
  }
}
