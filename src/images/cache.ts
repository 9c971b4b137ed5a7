/**
 * Master image cache: one verified copy per image in a master directory,
 * hard-linked into per-node locations (Ironic's ImageCache scheme).
 * - concurrent requests for one image share a single download;
 * - nothing unverified is ever visible under its final name: downloads go
 *   to a dot-named temp file that is renamed only after the checksum (and
 *   optional qcow2 -> raw conversion) succeeded;
 * - the size limit is enforced by evicting least recently used entries,
 *   never ones that are leased or still hard-linked (st_nlink > 1) from a
 *   node directory.
 */
import { countImageCache } from '../metrics/prometheus';
import { createHash, randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { StreamVerifier, resolveChecksum, type ImageChecksumInfo } from './checksum';
import { convertToRaw, detectImageFormat, type ImageFormat } from './convert';
import { downloadTo, fetchText, type DownloadProgress, type ProgressCallback } from './download';
import { isGlanceImage, parseImageId } from './glance/image-ref';

export interface ResolvedImage extends ImageChecksumInfo {
  /** http(s):// or file:// location of the bits. */
  url: string;
  /** Sent with an http(s) download, e.g. Glance's X-Auth-Token. */
  headers?: Record<string, string>;
}

/** Turns non-URL image sources (e.g. Glance ids) into URLs; supplied by the caller. */
export type ImageResolver = (imageSource: string) => Promise<ResolvedImage>;

interface ImageCacheOptions {
  /** e.g. [pxe]instance_master_path */
  master_dir: string;
  /** [pxe]image_cache_size in MiB; 0 or absent = unlimited. */
  image_cache_size?: number;
  /** Exact byte limit; overrides image_cache_size (handy for small setups/tests). */
  max_bytes?: number;
  /** [pxe]image_cache_ttl in minutes, used by cleanUpExpired(). */
  image_cache_ttl?: number;
  resolver?: ImageResolver;
}

export interface ImageRequest extends ImageChecksumInfo {
  image_source: string;
  /** Convert non-raw images (qcow2...) to raw, as [DEFAULT]force_raw_images. */
  force_raw?: boolean;
  onProgress?: ProgressCallback;
}

interface ImageLease {
  path: string;
  format: ImageFormat;
  size: number;
  release(): void;
}

export class ImageCacheError extends Error {
  override readonly name = 'ImageCacheError';
}

const isUrl = (s: string) => /^(https?|file):\/\//i.test(s);

interface InFlight {
  promise: Promise<void>;
  listeners: Set<ProgressCallback>;
}

export class ImageCache {
  private readonly inflight = new Map<string, InFlight>();
  private readonly leases = new Map<string, number>();
  private ready: Promise<void> | undefined;

  constructor(private readonly opts: ImageCacheOptions) {}

  private get maxBytes(): number {
    if (this.opts.max_bytes !== undefined) return this.opts.max_bytes;
    return (this.opts.image_cache_size ?? 0) * 1024 * 1024;
  }

  /** Creates the master dir and drops temp files a crash may have left. */
  private init(): Promise<void> {
    this.ready ??= (async () => {
      await fsp.mkdir(this.opts.master_dir, { recursive: true });
      for (const f of await fsp.readdir(this.opts.master_dir)) {
        if (f.startsWith('.tmp-')) await fsp.rm(path.join(this.opts.master_dir, f), { force: true });
      }
    })();
    return this.ready;
  }

  /** Cache key: the source plus what makes its bytes differ. */
  keyFor(req: ImageRequest): string {
    const h = createHash('sha256');
    // One entry per Glance image however it is written (UUID or glance://UUID), as Ironic's master file name.
    const source = isGlanceImage(req.image_source) ? parseImageId(req.image_source) : req.image_source;
    h.update([source, req.image_os_hash_value ?? req.image_checksum ?? '', req.force_raw ? 'raw' : ''].join('\0'));
    return h.digest('hex').slice(0, 40) + (req.force_raw ? '.raw' : '');
  }

  masterPath(key: string): string {
    return path.join(this.opts.master_dir, key);
  }

  /** Ensures the image is cached and pins it until release(). */
  async acquire(req: ImageRequest): Promise<ImageLease> {
    await this.init();
    const key = this.keyFor(req);
    this.pin(key);
    try {
      await this.ensure(key, req);
      const file = this.masterPath(key);
      const now = new Date();
      await fsp.utimes(file, now, now); // LRU order is mtime order
      const { size } = await fsp.stat(file);
      let released = false;
      return {
        path: file,
        size,
        format: await detectImageFormat(file),
        release: () => {
          if (!released) this.unpin(key);
          released = true;
        },
      };
    } catch (err) {
      this.unpin(key);
      throw err;
    }
  }

  /** Places the cached image at dest: hard link, or a copy across filesystems. */
  async fetchTo(req: ImageRequest, dest: string): Promise<ImageLease> {
    const lease = await this.acquire(req);
    try {
      await fsp.mkdir(path.dirname(dest), { recursive: true });
      await fsp.rm(dest, { force: true });
      await fsp.link(lease.path, dest).catch(() => fsp.copyFile(lease.path, dest));
      return { ...lease, path: dest };
    } finally {
      lease.release();
    }
  }

  private pin(key: string): void {
    this.leases.set(key, (this.leases.get(key) ?? 0) + 1);
  }

  private unpin(key: string): void {
    const n = (this.leases.get(key) ?? 1) - 1;
    if (n <= 0) this.leases.delete(key);
    else this.leases.set(key, n);
  }

  private async ensure(key: string, req: ImageRequest): Promise<void> {
    const existing = this.inflight.get(key);
    if (existing) {
      if (req.onProgress) existing.listeners.add(req.onProgress);
      return existing.promise;
    }
    // Registered synchronously so concurrent callers find it before any await.
    const listeners = new Set<ProgressCallback>(req.onProgress ? [req.onProgress] : []);
    const promise = this.populateIfMissing(key, req, (p) => listeners.forEach((l) => l(p)));
    this.inflight.set(key, { promise, listeners });
    try {
      await promise;
    } finally {
      this.inflight.delete(key);
    }
    await this.enforceSizeLimit();
  }

  private async populateIfMissing(key: string, req: ImageRequest, progress: (p: DownloadProgress) => void): Promise<void> {
    if (await fsp.stat(this.masterPath(key)).then(() => true, () => false)) {
      countImageCache('hit');
      return;
    }
    countImageCache('download');
    await this.populate(key, req, progress);
  }

  private async resolve(req: ImageRequest): Promise<ResolvedImage> {
    if (isUrl(req.image_source)) return { ...req, url: req.image_source };
    if (!this.opts.resolver) throw new ImageCacheError(`cannot resolve image source ${req.image_source}: no resolver`);
    const r = await this.opts.resolver(req.image_source);
    // Checksums given with the request win over what the resolver reports.
    return { ...r, ...stripUndefined(req), url: r.url };
  }

  private async populate(key: string, req: ImageRequest, progress: (p: DownloadProgress) => void): Promise<void> {
    const resolved = await this.resolve(req);
    const spec = await resolveChecksum(resolved, resolved.url, fetchText);
    const tmp = path.join(this.opts.master_dir, `.tmp-${key}-${randomBytes(4).toString('hex')}`);
    const tmpRaw = `${tmp}.raw`;
    try {
      const verifier = spec ? new StreamVerifier(spec, req.image_source) : undefined;
      await downloadTo(resolved.url, tmp, verifier, progress, resolved.headers);
      verifier?.verify();
      let final = tmp;
      if (req.force_raw) {
        const format = await detectImageFormat(tmp);
        if (format !== 'raw' && format !== 'iso') {
          await convertToRaw(tmp, tmpRaw, format);
          final = tmpRaw;
        }
      }
      await fsp.rename(final, this.masterPath(key));
    } finally {
      await fsp.rm(tmp, { force: true });
      await fsp.rm(tmpRaw, { force: true });
    }
  }

  private async entries(): Promise<Array<{ key: string; size: number; mtimeMs: number; nlink: number }>> {
    const out = [];
    for (const key of await fsp.readdir(this.opts.master_dir)) {
      if (key.startsWith('.')) continue;
      const st = await fsp.stat(this.masterPath(key)).catch(() => undefined);
      if (st?.isFile()) out.push({ key, size: st.size, mtimeMs: st.mtimeMs, nlink: st.nlink });
    }
    return out;
  }

  private inUse(e: { key: string; nlink: number }): boolean {
    return this.leases.has(e.key) || this.inflight.has(e.key) || e.nlink > 1;
  }

  /** Evicts least recently used, unused entries until under the limit; returns removed keys. */
  async enforceSizeLimit(): Promise<string[]> {
    const max = this.maxBytes;
    if (max <= 0) return [];
    const all = await this.entries();
    let total = all.reduce((s, e) => s + e.size, 0);
    const removed: string[] = [];
    for (const e of all.sort((a, b) => a.mtimeMs - b.mtimeMs)) {
      if (total <= max) break;
      if (this.inUse(e)) continue;
      await fsp.rm(this.masterPath(e.key), { force: true });
      total -= e.size;
      removed.push(e.key);
    }
    return removed;
  }

  /** Drops unused entries older than image_cache_ttl minutes. */
  async cleanUpExpired(now = Date.now()): Promise<string[]> {
    const ttl = this.opts.image_cache_ttl;
    if (!ttl) return [];
    const removed: string[] = [];
    for (const e of await this.entries()) {
      if (now - e.mtimeMs > ttl * 60_000 && !this.inUse(e)) {
        await fsp.rm(this.masterPath(e.key), { force: true });
        removed.push(e.key);
      }
    }
    return removed;
  }

  /** Cached keys (for inspection and tests). */
  async keys(): Promise<string[]> {
    await this.init();
    return (await this.entries()).map((e) => e.key);
  }
}

function stripUndefined(req: ImageRequest): ImageChecksumInfo {
  const out: ImageChecksumInfo = {};
  if (req.image_checksum) out.image_checksum = req.image_checksum;
  if (req.image_os_hash_algo) out.image_os_hash_algo = req.image_os_hash_algo;
  if (req.image_os_hash_value) out.image_os_hash_value = req.image_os_hash_value;
  return out;
}
