/** Telling UUIDs from logical names, with Ironic's rules for each microversion. */
import { V } from './versions';

const UUID_RE = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
/** RFC 3986 unreserved characters, the rule from 1.10 on. */
const LOGICAL_NAME_RE = /^[A-Za-z0-9\-._~]+$/;
/** The older hostname rule (RFC 952/1123), kept for requests below 1.10. */
const HOSTNAME_SAFE_RE = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

export function isUuidLike(value: unknown): value is string {
  return typeof value === 'string' && UUID_RE.test(value);
}

export function isValidLogicalName(name: unknown, minor: number): boolean {
  if (typeof name !== 'string' || name.length > 255 || name.length === 0) return false;
  return minor >= V.RFC3986_NODE_NAME ? LOGICAL_NAME_RE.test(name) : HOSTNAME_SAFE_RE.test(name);
}

/** Ironic's canonical form of a uuid-like string: lower case with dashes. */
export function canonicalUuid(value: string): string {
  const hex = value.replace(/-/g, '').toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
