/**
 * Glance image references (glance_service/service_utils): a bare UUID or `glance://[host/]UUID`.
 */
import { InvalidImageRef } from '../../common/errors';

// oslo uuidutils.is_uuid_like: hex with or without dashes, case-insensitive.
const UUID_LIKE = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

export function isUuidLike(value: string): boolean {
  return UUID_LIKE.test(value);
}

/** service_utils.is_glance_image */
export function isGlanceImage(href: unknown): boolean {
  return typeof href === 'string' && (href.startsWith('glance://') || isUuidLike(href));
}

/** service_utils.parse_image_id: the UUID, or InvalidImageRef. */
export function parseImageId(href: string): string {
  if (isUuidLike(href)) return href;
  if (href.startsWith('glance://')) {
    const id = href.split('/').pop() ?? '';
    if (isUuidLike(id)) return id;
  }
  throw new InvalidImageRef({ image_href: href });
}
