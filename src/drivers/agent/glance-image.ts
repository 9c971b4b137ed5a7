/**
 * The Glance half of deploy_utils.build_instance_info_for_deploy: the image record fills
 * instance_info (checksums, container format, tags, properties), tells whole-disk from
 * partition images (img_type, else kernel_id/ramdisk_id, as images.is_whole_disk_image) and
 * gives partition images their kernel and ramdisk.
 */
import { glanceServiceFor } from '../../images/glance/client';
import type { GlanceImageMeta } from '../../images/glance/image-meta';
import { swiftTempUrl } from '../../images/glance/swift-temp-url';
import { validateHttpHref } from '../../images/http-href';
import type { DriverTask, JsonObject } from '../base';
import { bootOption } from './boot-facts';

export async function showGlanceImage(task: DriverTask, source: string): Promise<GlanceImageMeta> {
  return glanceServiceFor(task.ctx.conf).show(source);
}

/** images.is_whole_disk_image for a Glance image without an explicit instance_info image_type. */
function glanceWholeDisk(image: GlanceImageMeta): boolean {
  const imgType = image.properties.img_type;
  if (typeof imgType === 'string' && imgType) return imgType !== 'partition';
  return !image.properties.kernel_id && !image.properties.ramdisk_id;
}

export function applyGlanceImageInfo(task: DriverTask, info: JsonObject, image: GlanceImageMeta): void {
  info.image_checksum = image.checksum;
  info.image_os_hash_algo = image.os_hash_algo;
  info.image_os_hash_value = image.os_hash_value;
  info.image_container_format = image.container_format;
  info.image_tags = image.tags;
  info.image_properties = image.properties;
  if (typeof info.image_disk_format !== 'string' && image.disk_format) info.image_disk_format = image.disk_format;
  if (typeof info.image_type !== 'string') {
    const iwdi = glanceWholeDisk(image);
    task.node.driver_internal_info = { ...(task.node.driver_internal_info ?? {}), is_whole_disk_image: iwdi };
  }
  const iwdi = (task.node.driver_internal_info ?? {}).is_whole_disk_image !== false;
  if (!iwdi && bootOption(task) !== 'local') {
    info.kernel = image.properties.kernel_id ?? null;
    info.ramdisk = image.properties.ramdisk_id ?? null;
  }
}

/**
 * image_download_source=swift: the agent downloads the image itself from a Swift temporary
 * URL, checked first with a HEAD request (_validate_image_url).
 */
export async function useSwiftTempUrl(task: DriverTask, info: JsonObject, image: GlanceImageMeta): Promise<JsonObject> {
  const url = await swiftTempUrl(task.ctx.conf, image);
  // The URL is a credential: failures name it 'secreturl'.
  await validateHttpHref(task.ctx.conf, url, true);
  info.image_url = url;
  info.image_disk_format = image.disk_format;
  return info;
}
