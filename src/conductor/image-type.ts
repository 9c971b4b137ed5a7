/**
 * conductor/utils.update_image_type: before a deployment or an adoption the conductor records
 * whether instance_info describes a whole-disk or a partition image (driver_internal_info
 * is_whole_disk_image, instance_info image_type), so drivers validate only what that image needs.
 */
import type { Task } from './task';

const UUID_LIKE = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

function isGlanceImage(href: string): boolean {
  return href.startsWith('glance://') || UUID_LIKE.test(href);
}

/**
 * images.is_whole_disk_image: true/false, or null when nothing can be said. Glance lookups are
 * not available here, so a Glance reference without image_type says nothing, as Ironic's failed
 * lookup does. Ironic also asks an http(s) source whether it is a directory listing (HEAD);
 * this does not, so such a source is taken for an image, what Ironic concludes when the HEAD
 * answer is not a listing.
 */
function isWholeDiskImage(info: Record<string, unknown>): boolean | null {
  const source = info.image_source;
  if (!source) return null;
  if (info.image_type) return info.image_type !== 'partition';
  if (typeof source === 'string' && isGlanceImage(source)) return null;
  return !info.kernel && !info.ramdisk;
}

/** Returns whether the node changed (the caller saves it). */
export function updateImageType(task: Task): boolean {
  const info = { ...(task.node.instance_info ?? {}) };
  const iwdi = isWholeDiskImage(info);
  if (iwdi === null) return false;
  task.node.driver_internal_info = { ...(task.node.driver_internal_info ?? {}), is_whole_disk_image: iwdi };
  task.node.instance_info = { ...info, image_type: iwdi ? 'whole-disk' : 'partition' };
  return true;
}
