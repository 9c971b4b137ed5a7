/**
 * Swift temporary URLs as swiftclient.utils.generate_temp_url makes them for Ironic (the
 * configdrive, Glance images in Swift): HMAC-SHA256 of "GET\n<expires>\n<path>" with the
 * account's key, appended as temp_url_sig and temp_url_expires.
 */
import { createHmac } from 'node:crypto';

/** generate_temp_url(path, seconds, key, 'GET') at an absolute expiry (seconds since the epoch). */
export function signTempUrl(urlPath: string, expires: number, key: string): string {
  const sig = createHmac('sha256', key).update(`GET\n${expires}\n${urlPath}`).digest('hex');
  return `${urlPath}?temp_url_sig=${sig}&temp_url_expires=${expires}`;
}
