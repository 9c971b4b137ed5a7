/**
 * auth_strategy = noauth serves every caller as an administrator: on an address other hosts can
 * reach, anyone on the network owns the fleet. A noauth server listens on loopback only, unless
 * the operator accepts the risk with [<group>]allow_insecure_noauth (an ironic-ts option), and
 * then the log says so at every start.
 */
import { BlockList, isIP } from 'node:net';
import type { Config } from '../conf/config';
import { log } from '../common/log';

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** 127.0.0.0/8, ::1 (also IPv4-mapped) and `localhost`; a wildcard, a LAN address or any other name is public. */
export function isLoopback(host: string): boolean {
  if (host.toLowerCase() === 'localhost') return true;
  const family = isIP(host);
  return family !== 0 && LOOPBACK.check(host, family === 4 ? 'ipv4' : 'ipv6');
}

interface Exposure {
  /** The server's name in messages, e.g. `ironic-api`. */
  service: string;
  /** The group of its host_ip and allow_insecure_noauth options. */
  group: 'api' | 'json_rpc' | 'prometheus';
  strategy: string;
  host: string;
}

/** Throws, naming the option, before a noauth server would listen on a public address. */
export function guardNoauthExposure(conf: Config, { service, group, strategy, host }: Exposure): void {
  if (strategy !== 'noauth' || isLoopback(host)) return;
  const option = `[${group}]allow_insecure_noauth`;
  if (!conf.bool(group, 'allow_insecure_noauth')) {
    throw new Error(`Refusing to start ${service} with auth_strategy = noauth on ${host || 'all addresses'}: ` +
      `anyone who can reach it would control every node. Listen on a loopback address ([${group}]host_ip = 127.0.0.1), ` +
      `choose keystone or http_basic, or set ${option} = true to accept the risk.`);
  }
  log.warning(`${service} serves auth_strategy = noauth on ${host || 'all addresses'} because ${option} is set: ` +
    'anyone who can reach it controls every node.');
}
