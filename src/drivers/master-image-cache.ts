/**
 * The conductor's master image caches, one per master directory for the whole process, so that
 * concurrent deploys of the same image (or nodes booting the same deploy ramdisk) share one
 * download. Sources may be URLs, file:// paths or Glance image ids.
 */
import type { Config } from '../conf/config';
import { ImageCache } from '../images/cache';
import { glanceImageResolver } from '../images/glance/resolver';

const caches = new Map<string, ImageCache>();

export function masterImageCacheAt(conf: Config, masterDir: string): ImageCache {
  let cache = caches.get(masterDir);
  if (!cache) {
    cache = new ImageCache({
      master_dir: masterDir,
      image_cache_size: conf.int('pxe', 'image_cache_size'),
      image_cache_ttl: conf.int('pxe', 'image_cache_ttl'),
      resolver: glanceImageResolver(conf),
    });
    caches.set(masterDir, cache);
  }
  return cache;
}
