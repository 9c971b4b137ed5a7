/**
 * The instance image as the direct deploy hands it to the agent (deploy_utils
 * build_instance_info_for_deploy / _cache_and_convert_image): file:// images, every image
 * when [agent]image_download_source is `local`, and every image that extra_data must be
 * injected into are cached on the conductor (one download per image, src/images/cache.ts),
 * placed per node under [pxe]images_path/<node>/disk (a hard link of the master, or an
 * injected copy, so the master never changes) and published under
 * [deploy]http_root/<http_image_subdir>/<node> = [deploy]http_url/<subdir>/<node>.
 * Other http(s) images go to the agent as they are.
 */
import { createHash } from 'node:crypto';
import { createReadStream, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { ImageRefValidationFailed, InvalidImage, InvalidParameterValue, MissingParameterValue } from '../../common/errors';
import { log } from '../../common/log';
import type { Config } from '../../conf/config';
import { ImageCacheError, type ImageCache, type ImageRequest } from '../../images/cache';
import { masterImageCacheAt } from '../master-image-cache';
import { isGlanceImage } from '../../images/glance/image-ref';
import { ChecksumError } from '../../images/checksum';
import { ImageConversionError, detectImageFormat } from '../../images/convert';
import { ImageDownloadError } from '../../images/download';
import { validateExtraData, ExtraDataValidationError, type ExtraData } from '../../images/extra-data-schema';
import { injectExtraData, InjectionError } from '../../images/inject';
import { findRootFilesystemOffset } from '../../images/rootfs-offset';
import { ImageHrefRedirect, validateHttpHref } from '../../images/http-href';
import type { DriverTask, JsonObject } from '../base';
import { DownloadProgressRecorder } from './download-progress';
import { applyGlanceImageInfo, showGlanceImage, useSwiftTempUrl } from './glance-image';

/** The master cache of instance images ([pxe]instance_master_path, Ironic's InstanceImageCache). */
function instanceImageCache(conf: Config): ImageCache {
  return masterImageCacheAt(conf, conf.str('pxe', 'instance_master_path'));
}

/** get_image_download_source: instance_info, then driver_info, then [agent]image_download_source. */
export function imageDownloadSource(task: DriverTask): string {
  const own = (task.node.instance_info ?? {}).image_download_source ?? (task.node.driver_info ?? {}).image_download_source;
  return typeof own === 'string' && own ? own : task.ctx.conf.str('agent', 'image_download_source');
}

/** extra_data that changes the image's bytes; null when there is nothing to inject. */
export function injectableExtraData(extraData: JsonObject | undefined): ExtraData | null {
  if (!extraData) return null;
  let data: ExtraData;
  try {
    data = validateExtraData(extraData);
  } catch (err) {
    if (err instanceof ExtraDataValidationError) throw new InvalidParameterValue(`Invalid extra_data: ${err.message}`);
    throw err;
  }
  return data.admin_pass !== undefined || (data.files?.length ?? 0) > 0 ? data : null;
}

/** Glance images are always cached and served by the conductor, unless the agent gets a Swift temp URL. */
export function servedLocally(task: DriverTask, injecting: boolean): boolean {
  const source = String((task.node.instance_info ?? {}).image_source ?? '');
  const download = imageDownloadSource(task);
  if (isGlanceImage(source)) return injecting || download !== 'swift';
  return injecting || source.startsWith('file://') || download === 'local';
}

const nodeImageDir = (conf: Config, uuid: string) => path.join(conf.str('pxe', 'images_path'), uuid);
/** The node's copy of its instance image on the conductor. */
export const nodeImagePath = (conf: Config, uuid: string) => path.join(nodeImageDir(conf, uuid), 'disk');
const httpImageDir = (conf: Config) => path.join(conf.str('deploy', 'http_root'), conf.str('deploy', 'http_image_subdir'));
const httpImagePath = (conf: Config, uuid: string) => path.join(httpImageDir(conf), uuid);

async function fileDigest(file: string, algo: string): Promise<string> {
  const hash = createHash(algo);
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/** Places the node's image: a hard link of the master, or an injected copy of it. */
async function placeNodeImage(task: DriverTask, req: ImageRequest, inject: ExtraData | null, dest: string): Promise<void> {
  const cache = instanceImageCache(task.ctx.conf);
  await fsp.rm(dest, { force: true });
  if (!inject) {
    await cache.fetchTo(req, dest);
    return;
  }
  const lease = await cache.acquire(req);
  try {
    const offset = await findRootFilesystemOffset(lease.path);
    if (offset === null) throw new InjectionError('no ext2/3/4 root filesystem found in the image');
    await injectExtraData(lease.path, dest, inject, { offset });
  } finally {
    lease.release();
  }
}

/** A hard link in http_root when it shares the filesystem, else a symlink as Ironic makes. */
async function publish(conf: Config, uuid: string, file: string): Promise<string> {
  await fsp.mkdir(httpImageDir(conf), { recursive: true });
  const target = httpImagePath(conf, uuid);
  await fsp.rm(target, { force: true });
  await fsp.link(file, target).catch(() => fsp.symlink(file, target));
  const base = (conf.optStr('deploy', 'http_url') ?? '').replace(/\/+$/, '');
  return [base, conf.str('deploy', 'http_image_subdir'), uuid].join('/');
}

function cacheFailure(err: unknown, source: string): Error {
  const msg = (err as Error).message;
  if (err instanceof ChecksumError || err instanceof InjectionError || err instanceof ImageConversionError) return new InvalidImage(msg);
  if (err instanceof ImageDownloadError || err instanceof ImageCacheError) {
    return new ImageRefValidationFailed({ image_href: source, reason: msg });
  }
  return err as Error;
}

/**
 * The node's copy of its instance image on the conductor ([pxe]images_path/<node>/disk): fetched
 * through the master cache with instance_info's checksums, raw when `forceRaw`, with `inject`'s
 * extra_data written in; its path.
 */
export async function cacheNodeImage(task: DriverTask, info: JsonObject, inject: ExtraData | null, forceRaw: boolean)
  : Promise<string> {
  const conf = task.ctx.conf;
  const source = String(info.image_source);
  const req: ImageRequest = {
    image_source: source,
    force_raw: forceRaw,
    ...(typeof info.image_checksum === 'string' ? { image_checksum: info.image_checksum } : {}),
    ...(typeof info.image_os_hash_algo === 'string' ? { image_os_hash_algo: info.image_os_hash_algo } : {}),
    ...(typeof info.image_os_hash_value === 'string' ? { image_os_hash_value: info.image_os_hash_value } : {}),
  };
  const dest = nodeImagePath(conf, task.node.uuid);
  await fsp.mkdir(nodeImageDir(conf, task.node.uuid), { recursive: true });
  const progress = new DownloadProgressRecorder(task, source);
  req.onProgress = progress.onProgress;
  let ok = false;
  try {
    await placeNodeImage(task, req, inject, dest);
    ok = true;
  } catch (err) {
    throw cacheFailure(err, source);
  } finally {
    await progress.finish(ok);
  }
  return dest;
}

/**
 * A URL the agent downloads itself, checked with a HEAD request first (_validate_image_url). A
 * redirect is followed once: the target becomes image_source and image_url, as in Ironic.
 */
async function withCheckedImageUrl(task: DriverTask, info: JsonObject): Promise<JsonObject> {
  const source = String(info.image_source);
  try {
    await checkImageUrl(task, source);
    info.image_url = source;
  } catch (err) {
    if (!(err instanceof ImageHrefRedirect)) throw err;
    const target = err.redirectUrl;
    info.image_source = target;
    info.image_url = target;
    await checkImageUrl(task, target);
  }
  return info;
}

async function checkImageUrl(task: DriverTask, url: string): Promise<void> {
  try {
    await validateHttpHref(task.ctx.conf, url);
  } catch (err) {
    if (err instanceof ImageRefValidationFailed) {
      log.error(`The specified URL is not a valid HTTP(S) URL or is not reachable for node ${task.node.uuid}: ${err.message}`);
    }
    throw err;
  }
}

/**
 * build_instance_info_for_deploy for the direct deploy: fills image_url, image_disk_format,
 * image_checksum/image_os_hash_* (recomputed when the bytes changed) and image_type.
 */
export async function buildInstanceInfoForDeploy(task: DriverTask, inject: ExtraData | null): Promise<JsonObject> {
  const conf = task.ctx.conf;
  const node = task.node;
  const info: JsonObject = { ...(node.instance_info ?? {}), image_url: null };
  const source = String(info.image_source);
  const glance = isGlanceImage(source) ? await showGlanceImage(task, source) : null;
  if (glance) applyGlanceImageInfo(task, info, glance);
  const iwdi = (node.driver_internal_info ?? {}).is_whole_disk_image !== false;
  info.image_type = iwdi ? 'whole-disk' : 'partition';
  if (glance && !servedLocally(task, inject !== null)) return useSwiftTempUrl(task, info, glance);
  if (!servedLocally(task, inject !== null)) return withCheckedImageUrl(task, info);
  if (!conf.optStr('deploy', 'http_url') || !conf.optStr('deploy', 'http_root')) {
    throw new MissingParameterValue(`Node ${node.uuid} failed to validate http provisoning. Some configuration options were ` +
      "missing. Missing are: ['[deploy]http_url', '[deploy]http_root']");
  }
  const streamRaw = conf.bool('DEFAULT', 'force_raw_images') && conf.bool('agent', 'stream_raw_images');
  // Injection works on a raw filesystem, whatever the raw-streaming settings say.
  const dest = await cacheNodeImage(task, info, inject, streamRaw || inject !== null);
  info.image_disk_format = await detectImageFormat(dest);
  // The agent checks what it downloads: the digest of the bytes served, which conversion or
  // injection may have changed (sha256 unless a stronger algorithm was given).
  const algo = typeof info.image_os_hash_algo === 'string' && info.image_os_hash_algo !== 'md5' ? info.image_os_hash_algo : 'sha256';
  const digest = await fileDigest(dest, algo);
  if (info.image_os_hash_algo !== algo || info.image_os_hash_value !== digest) info.image_checksum = null;
  info.image_os_hash_algo = algo;
  info.image_os_hash_value = digest;
  info.image_url = await publish(conf, node.uuid, dest);
  log.info(`Image ${source} for node ${node.uuid} cached and published at ${String(info.image_url)}` +
    (inject ? ' with extra_data injected' : ''));
  return info;
}

/** remove_http_instance_symlink: the published name only (done once the image is written). */
export async function removeHttpInstanceImage(conf: Config, uuid: string): Promise<void> {
  await fsp.rm(httpImagePath(conf, uuid), { force: true });
}

/** destroy_http_instance_images: the published name, the node's copy, and expired cache entries. */
export async function destroyHttpInstanceImages(conf: Config, uuid: string): Promise<void> {
  await removeHttpInstanceImage(conf, uuid);
  await fsp.rm(nodeImageDir(conf, uuid), { recursive: true, force: true });
  await instanceImageCache(conf).cleanUpExpired().catch(() => []);
}

/** Nova's meta_data carries the admin password for cloud-init/cloudbase-init; so does ours. */
export function addAdminPassToConfigdrive(task: DriverTask, adminPass: string | undefined): void {
  const ii = task.node.instance_info ?? {};
  const cd = ii.configdrive;
  if (adminPass === undefined || !cd || typeof cd !== 'object' || Array.isArray(cd)) return;
  const dict = cd as JsonObject;
  const meta = { ...((dict.meta_data ?? {}) as JsonObject) };
  if (!Object.hasOwn(meta, 'admin_pass')) meta.admin_pass = adminPass;
  task.node.instance_info = { ...ii, configdrive: { ...dict, meta_data: meta } };
}
