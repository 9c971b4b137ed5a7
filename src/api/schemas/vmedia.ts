/** The body of POST /v1/nodes/{ident}/vmedia (node.py VMEDIA_ATTACH_VALIDATOR, 1.89). */
import { VMEDIA_DEVICES } from '../../common/boot-devices';
import type { Schema } from './jsonschema';

export const VMEDIA_ATTACH_SCHEMA: Schema = {
  type: 'object',
  properties: {
    device_type: { type: 'string', enum: [...VMEDIA_DEVICES] },
    image_url: { type: 'string' },
    image_download_source: { type: 'string', enum: ['http', 'local', 'swift'] },
  },
  required: ['device_type', 'image_url'],
  additionalProperties: false,
};

/** Where Python's urllib.parse.urlparse sees a scheme: lowercased, '' when there is none. */
export function urlScheme(url: string): string {
  // urlsplit drops leading C0 controls and spaces, and tabs and newlines anywhere.
  const cleaned = url.replace(/^[\u0000-\u0020]+/, '').replace(/[\t\r\n]/g, '');
  const colon = cleaned.indexOf(':');
  if (colon <= 0 || !/^[A-Za-z]$/.test(cleaned[0])) return '';
  const scheme = cleaned.slice(0, colon);
  return /^[A-Za-z0-9+.-]+$/.test(scheme) ? scheme.toLowerCase() : '';
}
