/**
 * Image checksum handling. Sources, in Ironic's order of preference:
 *  - image_os_hash_algo + image_os_hash_value (md5/sha1/sha256/sha512),
 *  - image_checksum, either a bare digest (algorithm told by its length,
 *    md5 being the classic 32 hex characters) or a URL to a checksum file
 *    whose lines are `<digest>  <file name>` (sha256sum/md5sum style, also
 *    `*name` and BSD `ALGO (name) = digest`), or a single bare digest.
 * Verification happens while the image streams to disk.
 */
import * as crypto from 'node:crypto';
import * as path from 'node:path';

type HashAlgo = 'md5' | 'sha1' | 'sha256' | 'sha512';

interface ChecksumSpec {
  algo: HashAlgo;
  value: string;
}

export interface ImageChecksumInfo {
  image_checksum?: string;
  image_os_hash_algo?: string;
  image_os_hash_value?: string;
}

export class ChecksumError extends Error {
  override readonly name: string = 'ChecksumError';
}

class ChecksumMismatchError extends ChecksumError {
  override readonly name = 'ChecksumMismatchError';
  constructor(
    readonly imageSource: string,
    readonly expected: string,
    readonly actual: string,
    readonly algo: HashAlgo,
  ) {
    super(`The supplied image checksum is invalid or does not match the image ${imageSource}: expected ${algo} ${expected}, got ${actual}`);
  }
}

const BY_LENGTH: Record<number, HashAlgo> = { 32: 'md5', 40: 'sha1', 64: 'sha256', 128: 'sha512' };
const ALGOS = new Set<string>(['md5', 'sha1', 'sha256', 'sha512']);

export function algoForDigest(digest: string): HashAlgo {
  const algo = /^[0-9a-f]+$/i.test(digest) ? BY_LENGTH[digest.length] : undefined;
  if (!algo) throw new ChecksumError(`cannot tell the algorithm of checksum ${digest.slice(0, 20)}...`);
  return algo;
}

function isChecksumUrl(value: string): boolean {
  return /^(https?|file):\/\//i.test(value);
}

/** Finds the digest for `imageName` in a checksum file. */
export function parseChecksumFile(text: string, imageName: string): string {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  if (lines.length === 1 && /^[0-9a-f]+$/i.test(lines[0]!)) return lines[0]!;
  for (const line of lines) {
    const gnu = /^([0-9a-f]+)\s+\*?(.+)$/i.exec(line);
    if (gnu && path.basename(gnu[2]!.trim()) === imageName) return gnu[1]!;
    const bsd = /^\w+\s*\((.+)\)\s*=\s*([0-9a-f]+)$/i.exec(line);
    if (bsd && path.basename(bsd[1]!) === imageName) return bsd[2]!;
  }
  throw new ChecksumError(`no checksum for ${imageName} in checksum file`);
}

/** Name an image is listed under in a checksum file: the last URL path segment. */
export function imageFileName(imageSource: string): string {
  try {
    return path.basename(decodeURIComponent(new URL(imageSource).pathname));
  } catch {
    return path.basename(imageSource);
  }
}

type TextFetcher = (url: string) => Promise<string>;

export async function resolveChecksum(info: ImageChecksumInfo, imageSource: string, fetchText: TextFetcher): Promise<ChecksumSpec | undefined> {
  if (info.image_os_hash_algo && info.image_os_hash_value) {
    const algo = info.image_os_hash_algo.toLowerCase();
    if (!ALGOS.has(algo)) throw new ChecksumError(`unsupported image_os_hash_algo ${info.image_os_hash_algo}`);
    return { algo: algo as HashAlgo, value: info.image_os_hash_value.toLowerCase() };
  }
  if (!info.image_checksum) return undefined;
  let digest = info.image_checksum.trim();
  if (isChecksumUrl(digest)) digest = parseChecksumFile(await fetchText(digest), imageFileName(imageSource));
  return { algo: algoForDigest(digest), value: digest.toLowerCase() };
}

/** Incremental verifier fed with the bytes as they are written. */
export class StreamVerifier {
  private readonly hash: crypto.Hash;
  constructor(private readonly spec: ChecksumSpec, private readonly imageSource: string) {
    this.hash = crypto.createHash(spec.algo);
  }
  update(chunk: Uint8Array): void {
    this.hash.update(chunk);
  }
  /** Throws ChecksumMismatchError when the digest differs. */
  verify(): void {
    const actual = this.hash.digest('hex');
    if (actual !== this.spec.value) throw new ChecksumMismatchError(this.imageSource, this.spec.value, actual, this.spec.algo);
  }
}
