/**
 * Glance v2 image records as Ironic sees them (service_utils.translate_from_glance): the
 * standard attributes, everything else under `properties` (kernel_id, ramdisk_id, img_type,
 * block_device_mapping...), and the status/visibility checks of GlanceImageService.show.
 */
import { ImageNotFound, ImageUnacceptable } from '../../common/errors';

const IMAGE_ATTRIBUTES = ['size', 'disk_format', 'owner', 'container_format', 'checksum', 'id', 'name', 'created_at',
  'updated_at', 'deleted_at', 'deleted', 'status', 'min_disk', 'min_ram', 'tags', 'visibility', 'protected', 'file',
  'schema', 'os_hash_algo', 'os_hash_value'] as const;

// Properties Ironic decodes from their JSON string form (service_utils._CONVERT_PROPS).
const JSON_PROPS = ['block_device_mapping', 'mappings'];

export interface GlanceImageMeta {
  id: string;
  name: string | null;
  status: string | null;
  visibility: string | null;
  owner: string | null;
  size: number | null;
  disk_format: string | null;
  container_format: string | null;
  checksum: string | null;
  os_hash_algo: string | null;
  os_hash_value: string | null;
  tags: string[];
  /** Glance's location when it shows direct URLs (show_image_direct_url). */
  direct_url: string | null;
  properties: Record<string, unknown>;
  [attr: string]: unknown;
}

function decodeJsonProps(properties: Record<string, unknown>): void {
  for (const name of JSON_PROPS) {
    const value = properties[name];
    if (typeof value !== 'string') continue;
    try {
      properties[name] = JSON.parse(value);
    } catch {
      // Left as Glance stored it.
    }
  }
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

export function translateFromGlance(raw: Record<string, unknown>): GlanceImageMeta {
  const known = new Set<string>(IMAGE_ATTRIBUTES);
  const properties: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) if (!known.has(k)) properties[k] = v;
  decodeJsonProps(properties);
  const out: Record<string, unknown> = {};
  for (const attr of IMAGE_ATTRIBUTES) out[attr] = raw[attr] ?? null;
  return {
    ...out,
    id: String(raw.id),
    name: str(raw.name),
    status: str(raw.status),
    visibility: str(raw.visibility),
    owner: str(raw.owner),
    size: typeof raw.size === 'number' ? raw.size : null,
    disk_format: str(raw.disk_format),
    container_format: str(raw.container_format),
    checksum: str(raw.checksum),
    os_hash_algo: str(raw.os_hash_algo),
    os_hash_value: str(raw.os_hash_value),
    tags: Array.isArray(raw.tags) ? raw.tags.map(String) : [],
    direct_url: str(raw.direct_url),
    properties,
  };
}

/** Who asks: a user token (trusted as Glance answered) or the service's project. */
export interface ImageContext {
  authenticated: boolean;
  projectId: string | null;
}

/** service_utils.is_image_available */
function isImageAvailable(ctx: ImageContext, image: GlanceImageMeta): boolean {
  if (ctx.authenticated) return true;
  if (image.visibility === 'public') return true;
  return Boolean(ctx.projectId) && image.owner === ctx.projectId;
}

/** GlanceImageService.show's checks: active, then available to the caller. */
export function checkImageUsable(ctx: ImageContext, image: GlanceImageMeta): void {
  if (image.status !== 'active') {
    throw new ImageUnacceptable({ image_id: image.id, reason: 'The image is required to be in an active state.' });
  }
  if (!isImageAvailable(ctx, image)) throw new ImageNotFound({ image_id: image.id });
}
