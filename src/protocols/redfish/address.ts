// redfish_address in the forms Ironic accepts: host, host:port, [v6]:port, bare IPv6, http(s)://host[:port][/prefix].
// Like Ironic, a missing scheme means https, and a path on the address becomes the service root prefix.

import { isIPv6 } from 'node:net';
import { RedfishConfigError } from './errors';

export interface RedfishEndpoint {
  /** scheme://host[:port], no trailing slash. */
  origin: string;
  protocol: 'http:' | 'https:';
  /** Host name as the socket layer wants it (no IPv6 brackets). */
  hostname: string;
  port: number;
  /** Service root path with a trailing slash, "/redfish/v1/" unless the address says otherwise. */
  rootPrefix: string;
}

const DEFAULT_ROOT = '/redfish/v1/';

export function parseRedfishAddress(address: string): RedfishEndpoint {
  if (typeof address !== 'string' || address.trim() === '') throw new RedfishConfigError('redfish_address is empty');
  let text = address.trim();
  if (isIPv6(text)) text = `[${text}]`;
  if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(text)) text = `https://${text}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new RedfishConfigError(`Invalid redfish_address ${JSON.stringify(address)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new RedfishConfigError(`Unsupported scheme ${url.protocol} in redfish_address ${JSON.stringify(address)}`);
  }
  if (url.hostname === '') throw new RedfishConfigError(`No host in redfish_address ${JSON.stringify(address)}`);
  if (url.username || url.password) {
    throw new RedfishConfigError('redfish_address must not carry credentials; use redfish_username/redfish_password');
  }
  if (url.search || url.hash) throw new RedfishConfigError(`redfish_address ${JSON.stringify(address)} must not have a query or fragment`);
  const protocol = url.protocol;
  const port = url.port ? Number(url.port) : protocol === 'https:' ? 443 : 80;
  const path = url.pathname === '' || url.pathname === '/' ? DEFAULT_ROOT : url.pathname.replace(/\/*$/, '/');
  return {
    origin: `${protocol}//${url.host}`,
    protocol,
    hostname: url.hostname.replace(/^\[|\]$/g, ''),
    port,
    rootPrefix: path,
  };
}

/**
 * The ComputerSystem path from redfish_system_id: an absolute path is used as is, a bare id is
 * placed under the Systems collection of the root prefix. Either way it is URL-quoted as Ironic does.
 */
export function systemPathFromId(systemId: string, rootPrefix: string): string {
  const trimmed = systemId.trim();
  if (trimmed === '') throw new RedfishConfigError('redfish_system_id is empty');
  if (trimmed.startsWith('/')) return encodeURI(decodeSafely(trimmed));
  return `${rootPrefix}Systems/${encodeURIComponent(trimmed)}`;
}

function decodeSafely(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}
