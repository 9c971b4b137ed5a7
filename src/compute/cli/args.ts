/**
 * The options every `ironic-compute` command shares, and the parsers that turn option text into the
 * shim's inputs (network_info, injected files, flavor extra specs).
 */
import * as fs from 'node:fs';
import { parseArgs } from 'node:util';
import type { InjectedFile, NetworkInfo, SubnetSpec, VifSpec } from '../types';
import { ipVersion, networkAddressOf, parseCidr } from '../../common/ip-address';

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

const OPTIONS = {
  url: { type: 'string' }, 'api-version': { type: 'string' }, interval: { type: 'string' }, timeout: { type: 'string' },
  help: { type: 'boolean', short: 'h' }, json: { type: 'boolean' },
  node: { type: 'string' }, instance: { type: 'string' }, 'instance-uuid': { type: 'string' },
  image: { type: 'string' }, name: { type: 'string' }, hostname: { type: 'string' }, flavor: { type: 'string' },
  'ssh-key': { type: 'string' }, 'key-name': { type: 'string' }, 'user-data': { type: 'string' },
  'admin-pass': { type: 'string' }, file: { type: 'string', multiple: true }, network: { type: 'string', multiple: true },
  trait: { type: 'string', multiple: true }, capability: { type: 'string', multiple: true },
  property: { type: 'string', multiple: true }, project: { type: 'string' }, 'dhcp-domain': { type: 'string' },
  host: { type: 'string' }, 'preserve-ephemeral': { type: 'boolean' },
  hard: { type: 'boolean' }, 'shutdown-timeout': { type: 'string' }, password: { type: 'string' },
  vif: { type: 'string' }, enable: { type: 'boolean' },
} as const;

export type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

export function parseCommandLine(argv: string[]): { values: Values; positionals: string[] } {
  try {
    return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

export function required<K extends 'node' | 'image' | 'vif'>(v: Values, key: K): string {
  const value = v[key];
  if (!value) throw new UsageError(`--${key} is required`);
  return value;
}

export function seconds(text: string | undefined, option: string): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isFinite(n) || n < 0) throw new UsageError(`--${option} must be a number of seconds`);
  return n;
}

/** `KEY=VALUE` pairs of a repeatable option. */
export function pairs(items: string[] | undefined, option: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of items ?? []) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw new UsageError(`--${option} expects KEY=VALUE, got "${item}"`);
    out[item.slice(0, eq)] = item.slice(eq + 1);
  }
  return out;
}

export function readText(file: string | undefined): string | undefined {
  return file === undefined ? undefined : fs.readFileSync(file, 'utf8');
}

/** `--file /path/in/instance=LOCAL_FILE`, as `openstack server create --file`. */
export function injectedFiles(items: string[] | undefined): InjectedFile[] {
  return Object.entries(pairs(items, 'file')).map(([dest, src]) => ({ path: dest, contents: fs.readFileSync(src) }));
}

/**
 * `--network vif=ID[,mac=MAC][,net=NETWORK_ID][,ip=ADDR/PREFIX][,gateway=GW][,dns=A;B][,mtu=N]
 * [,route=CIDR@GW][,dhcp=SERVER]`: one VIF of network_info. Without ip the VIF is only attached.
 */
export function networkInfo(items: string[] | undefined): NetworkInfo {
  return (items ?? []).map(parseVif);
}

function parseVif(text: string): VifSpec {
  const f: Record<string, string> = {};
  for (const part of text.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) throw new UsageError(`--network: expected KEY=VALUE, got "${part}"`);
    f[part.slice(0, eq)] = part.slice(eq + 1);
  }
  if (!f.vif) throw new UsageError(`--network needs vif=ID: "${text}"`);
  const mtu = f.mtu === undefined ? undefined : Number(f.mtu);
  if (mtu !== undefined && !Number.isInteger(mtu)) throw new UsageError(`--network: mtu must be an integer`);
  return {
    id: f.vif, address: f.mac, type: 'other',
    network: { id: f.net ?? f.vif, mtu, subnets: f.ip ? [subnetOf(f)] : [] },
  };
}

function subnetOf(f: Record<string, string>): SubnetSpec {
  const [ip, prefix] = f.ip.split('/');
  const width = ipVersion(ip) === 4 ? 32 : 128;
  let cidr: string;
  try {
    parseCidr(f.ip);
    cidr = `${networkAddressOf(`${ip}/${prefix ?? width}`)}/${prefix ?? width}`;
  } catch (err) {
    throw new UsageError(`--network: ${(err as Error).message}`);
  }
  return {
    cidr, ips: [ip], gateway: f.gateway, dns: f.dns ? f.dns.split(';') : [],
    routes: f.route ? f.route.split(';').map((r) => ({ cidr: r.split('@')[0], gateway: r.split('@')[1] })) : [],
    dhcpServer: f.dhcp,
  };
}
