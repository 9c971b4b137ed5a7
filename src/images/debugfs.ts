/**
 * Minimal access to an ext2/3/4 filesystem inside an image file through
 * e2fsprogs' debugfs, which needs no root and no mounting. debugfs exits 0
 * even when a command fails, so failures are recognised from stderr and
 * writes are confirmed by reading back.
 */
import { execFile } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const DEBUGFS = '/sbin/debugfs';

export class DebugfsError extends Error {
  override readonly name = 'DebugfsError';
}

export interface FsTarget {
  image: string;
  /** Byte offset of the filesystem inside the image (partitioned disks). */
  offset?: number;
}

interface InodeInfo {
  mode: number;
  uid: number;
  gid: number;
  type: string;
}

function device(t: FsTarget): string {
  return t.offset ? `${t.image}?offset=${t.offset}` : t.image;
}

function quote(p: string): string {
  if (/["\n\r]/.test(p)) throw new DebugfsError(`unsupported character in path ${p}`);
  return `"${p}"`;
}

/** Lines of stderr other than the version banner. */
function problems(stderr: string): string[] {
  return stderr.split('\n').map((l) => l.trim()).filter((l) => l && !/^debugfs \d/.test(l));
}

async function request(t: FsTarget, cmd: string): Promise<{ stdout: Buffer; stderr: string }> {
  try {
    const r = await run(DEBUGFS, ['-R', cmd, device(t)], { encoding: 'buffer', maxBuffer: 256 * 1024 * 1024 });
    return { stdout: r.stdout, stderr: r.stderr.toString() };
  } catch (err) {
    throw new DebugfsError(`debugfs failed: ${(err as Error).message}`);
  }
}

export async function checkFilesystem(t: FsTarget): Promise<void> {
  const { stderr } = await request(t, 'stat /');
  const p = problems(stderr);
  if (p.length) throw new DebugfsError(`not an ext filesystem image: ${p.join('; ')}`);
}

export async function statPath(t: FsTarget, p: string): Promise<InodeInfo | undefined> {
  const { stdout, stderr } = await request(t, `stat ${quote(p)}`);
  if (problems(stderr).some((l) => /not found/i.test(l))) return undefined;
  const text = stdout.toString();
  const mode = /Mode:\s+(0?[0-7]+)/.exec(text);
  const ids = /User:\s+(\d+)\s+Group:\s+(\d+)/.exec(text);
  const type = /Type:\s+(\S+)/.exec(text);
  if (!mode || !ids || !type) throw new DebugfsError(`cannot parse debugfs stat of ${p}: ${problems(stderr).join('; ')}`);
  return { mode: parseInt(mode[1]!, 8), uid: Number(ids[1]), gid: Number(ids[2]), type: type[1]! };
}

export async function readFile(t: FsTarget, p: string): Promise<Buffer> {
  const info = await statPath(t, p);
  if (!info || info.type !== 'regular') throw new DebugfsError(`${p} is not a regular file in the image`);
  return (await request(t, `cat ${quote(p)}`)).stdout;
}

export interface WriteSpec {
  path: string;
  data: Buffer;
  /** Permission bits, e.g. 0o644. */
  mode: number;
  uid: number;
  gid: number;
}

/** Directories missing along the way are created (root-owned, 0755). */
async function missingDirs(t: FsTarget, file: string): Promise<string[]> {
  const out: string[] = [];
  let dir = path.posix.dirname(file);
  while (dir !== '/') {
    const info = await statPath(t, dir);
    if (info && info.type !== 'directory') throw new DebugfsError(`${dir} exists in the image and is not a directory`);
    if (info) break;
    out.unshift(dir);
    dir = path.posix.dirname(dir);
  }
  return out;
}

/** Replaces/creates files in one read-write debugfs session, then reads them back. */
export async function writeFiles(t: FsTarget, specs: WriteSpec[]): Promise<void> {
  const work = await fsp.mkdtemp(path.join(os.tmpdir(), 'debugfs-'));
  try {
    const cmds: string[] = [];
    const made = new Set<string>();
    for (const [i, s] of specs.entries()) {
      for (const d of await missingDirs(t, s.path)) {
        if (made.has(d)) continue;
        made.add(d);
        cmds.push(`mkdir ${quote(d)}`, `sif ${quote(d)} mode 040755`, `sif ${quote(d)} uid 0`, `sif ${quote(d)} gid 0`);
      }
      const local = path.join(work, `f${i}`);
      await fsp.writeFile(local, s.data);
      const existing = await statPath(t, s.path);
      if (existing && existing.type !== 'regular') throw new DebugfsError(`${s.path} exists in the image and is not a regular file`);
      if (existing) cmds.push(`rm ${quote(s.path)}`);
      cmds.push(`write ${quote(local)} ${quote(s.path)}`);
      cmds.push(`sif ${quote(s.path)} mode 0${(0o100000 | (s.mode & 0o7777)).toString(8)}`);
      cmds.push(`sif ${quote(s.path)} uid ${s.uid}`, `sif ${quote(s.path)} gid ${s.gid}`);
    }
    const script = path.join(work, 'commands');
    await fsp.writeFile(script, cmds.join('\n') + '\n');
    let stderr: string;
    try {
      stderr = (await run(DEBUGFS, ['-w', '-f', script, device(t)], { maxBuffer: 16 * 1024 * 1024 })).stderr;
    } catch (err) {
      throw new DebugfsError(`debugfs failed: ${(err as Error).message}`);
    }
    for (const s of specs) {
      const back = await readFile(t, s.path).catch(() => undefined);
      if (!back || !back.equals(s.data)) throw new DebugfsError(`writing ${s.path} failed: ${problems(stderr).join('; ') || 'content mismatch'}`);
    }
  } finally {
    await fsp.rm(work, { recursive: true, force: true });
  }
}
