/**
 * GlanceImageService.swift_temp_url: a Swift temporary URL for a Glance image stored in Swift,
 * handed to the agent when image_download_source is `swift`. The endpoint, account and key
 * come from [glance] (swift_endpoint_url, swift_account, swift_temp_url_key), else from the
 * [swift] session: the object-store endpoint of its catalog, `<swift_account_prefix>_<project
 * id>`, and the account's temp URL key (read through SwiftAPI), signed as SwiftAPI's
 * generate_temp_url does.
 */
import { ImageUnacceptable, InvalidParameterValue, MissingParameterValue } from '../../common/errors';
import type { Config } from '../../conf/config';
import type { GlanceImageMeta } from './image-meta';
import { isUuidLike } from './image-ref';
import { adapterFor } from '../../common/keystone/adapter';
import { SwiftApi } from '../../common/swift/client';
import { signTempUrl } from '../../common/swift/temp-url';

const cache = new Map<string, { url: string; expiresAt: number }>();

/** _validate_temp_url_config */
function validateConfig(conf: Config): void {
  if (conf.int('glance', 'swift_temp_url_duration') < conf.int('glance', 'swift_temp_url_expected_download_start_delay')) {
    throw new InvalidParameterValue('"swift_temp_url_duration" must be greater than or equal to ' +
      '"[glance]swift_temp_url_expected_download_start_delay" option, otherwise the Swift temporary URL may expire before ' +
      'the download starts.');
  }
  const seed = conf.int('glance', 'swift_store_multiple_containers_seed');
  if (seed < 0 || seed > 32) {
    throw new InvalidParameterValue('An integer value between 0 and 32 is required for swift_store_multiple_containers_seed.');
  }
}

/** _get_swift_container: glance_store's container naming, single or multiple containers. */
export function swiftContainer(conf: Config, imageId: string): string {
  const seed = conf.int('glance', 'swift_store_multiple_containers_seed');
  const base = conf.str('glance', 'swift_container');
  if (seed <= 0) return base;
  const id = imageId.toLowerCase();
  const dashes = (id.slice(0, seed).match(/-/g) ?? []).length;
  return `${base}_${id.slice(0, seed + dashes)}`;
}

async function swiftEndpoint(conf: Config): Promise<string> {
  const configured = conf.optStr('glance', 'swift_endpoint_url');
  if (configured) return configured;
  try {
    return await adapterFor(conf, 'swift').endpoint();
  } catch {
    throw new MissingParameterValue('Swift temporary URLs require a Swift endpoint URL, but it was not found in the ' +
      'service catalog. You must provide "swift_endpoint_url" as a config option.');
  }
}

export async function swiftTempUrl(conf: Config, image: GlanceImageMeta, now = Date.now()): Promise<string> {
  validateConfig(conf);
  if (!isUuidLike(image.id)) {
    throw new ImageUnacceptable(`The given image info does not have a valid image id: ${JSON.stringify(image)}`);
  }
  const cacheEnabled = conf.bool('glance', 'swift_temp_url_cache_enabled');
  const minValid = Math.floor(now / 1000) + conf.int('glance', 'swift_temp_url_expected_download_start_delay');
  const cached = cache.get(image.id);
  if (cacheEnabled && cached && cached.expiresAt >= minValid) return cached.url;

  const configuredKey = conf.optStr('glance', 'swift_temp_url_key');
  const configuredAccount = conf.optStr('glance', 'swift_account');
  const needSession = !configuredKey || !configuredAccount || !conf.optStr('glance', 'swift_endpoint_url');
  const token = needSession ? await adapterFor(conf, 'swift').token() : null;
  const fullEndpoint = await swiftEndpoint(conf);
  let prefix = conf.str('glance', 'swift_account_prefix');
  if (prefix && !prefix.endsWith('_')) prefix = `${prefix}_`;
  // Strip /v1/AUTH_<project>, if present.
  const endpoint = fullEndpoint.replace(new RegExp(`/v1/${prefix}[^/]+/?$`), '');
  const account = configuredAccount ?? (token?.projectId ? `${prefix}${token.projectId}` : null);
  // Ironic reads the key with SwiftAPI: the [swift] endpoint and token.
  const key = configuredKey ?? (token ? await (await SwiftApi.connect(conf)).tempUrlKey() : null);
  if (!key) {
    throw new MissingParameterValue('Swift temporary URLs require a shared secret to be created. You must provide ' +
      '"swift_temp_url_key" as a config option or pre-generate the key on the project used to access Swift.');
  }
  if (!account) throw new MissingParameterValue('Swift temporary URLs require "[glance]swift_account" or [swift] auth.');
  const urlPath = `/${conf.str('glance', 'swift_api_version')}/${account}/${swiftContainer(conf, image.id)}/${image.id}`;
  const expires = Math.floor(now / 1000 + conf.int('glance', 'swift_temp_url_duration'));
  const url = `${endpoint}${signTempUrl(urlPath, expires, key)}`;
  if (cacheEnabled) cache.set(image.id, { url, expiresAt: expires });
  return url;
}
