/**
 * Glance image ids for the image cache (src/images/cache.ts ImageResolver): the image's
 * record gives the checksums the download is verified against, and the bits come from
 * `GET /v2/images/{id}/file` with the service token, or straight from Glance's file store
 * when [glance]allowed_direct_url_schemes has `file` and Glance shows a file:// direct_url
 * (GlanceImageService.download).
 */
import { InvalidImageRef } from '../../common/errors';
import type { Config } from '../../conf/config';
import type { ImageResolver, ResolvedImage } from '../cache';
import { glanceServiceFor, type GlanceImageService } from './client';
import type { GlanceImageMeta } from './image-meta';
import { isGlanceImage } from './image-ref';

function checksumsOf(image: GlanceImageMeta): Omit<ResolvedImage, 'url'> {
  return {
    ...(image.checksum ? { image_checksum: image.checksum } : {}),
    ...(image.os_hash_algo && image.os_hash_value ? { image_os_hash_algo: image.os_hash_algo, image_os_hash_value: image.os_hash_value } : {}),
  };
}

async function resolveGlanceImage(conf: Config, glance: GlanceImageService, image: GlanceImageMeta): Promise<ResolvedImage> {
  const direct = image.direct_url;
  if (direct?.startsWith('file://') && conf.list('glance', 'allowed_direct_url_schemes').includes('file')) {
    return { url: direct, ...checksumsOf(image) };
  }
  const { url, headers } = await glance.dataRequest(image.id);
  return { url, headers, ...checksumsOf(image) };
}

export function glanceImageResolver(conf: Config): ImageResolver {
  return async (imageSource) => {
    if (!isGlanceImage(imageSource)) throw new InvalidImageRef({ image_href: imageSource });
    const glance = glanceServiceFor(conf);
    return resolveGlanceImage(conf, glance, await glance.show(imageSource));
  };
}
