/**
 * Swift temporary URLs as Ironic 29.0.5 makes them (SwiftAPI.generate_temp_url, i.e.
 * openstacksdk's object_store generate_temp_url) for the configdrive and for Glance images in
 * Swift: HMAC-SHA1 of "GET\n<expires>\n<path>" with the account's key, appended as
 * temp_url_sig and temp_url_expires.
 */
import { createHmac } from 'node:crypto';

/** generate_temp_url(path, seconds, 'GET', temp_url_key=key) at an absolute expiry (seconds since the epoch). */
export function signTempUrl(urlPath: string, expires: number, key: string): string {
  const sig = createHmac('sha1', key).update(`GET\n${expires}\n${urlPath}`).digest('hex');
  return `${urlPath}?temp_url_sig=${sig}&temp_url_expires=${expires}`;
}
