/** Telling UUIDs from logical names, with Ironic's rules for each microversion. */
import { V } from './versions';
import { isUuidLike, isValidLogicalName as isRfc3986Name } from './schemas/args';

export { isUuidLike };

/** The older hostname rule (RFC 952/1123), kept for requests below 1.10. */
const HOSTNAME_SAFE_RE = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

export function isValidLogicalName(name: unknown, minor: number): boolean {
  if (typeof name !== 'string' || name.length > 255 || name.length === 0) return false;
  return minor >= V.RFC3986_NODE_NAME ? isRfc3986Name(name) : HOSTNAME_SAFE_RE.test(name);
}

/** Ironic's canonical form of a uuid-like string: lower case with dashes. */
export function canonicalUuid(value: string): string {
  const hex = value.replace(/urn:|uuid:|[{}-]/g, '').toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
