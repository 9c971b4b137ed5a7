/**
 * network_data.json as Nova's ironic driver builds it: netutils.get_network_metadata over the
 * instance's network_info, then (driver._get_network_metadata) each link whose VIF Ironic attached
 * to a port takes that port's MAC and type `phy`, and a VIF on a portgroup becomes a `bond` link
 * with one extra `phy` link per member port.
 */
import { ipVersion, netmaskOf, networkAddressOf } from '../common/ip-address';
import type { NetworkInfo, SubnetSpec, VifSpec } from './types';

/** nova.network.model.LEGACY_EXPOSED_VIF_TYPES: link types shown as they are; others are `phy`. */
const LEGACY_EXPOSED_VIF_TYPES = new Set(['bridge', 'dvs', 'hw_veb', 'hyperv', 'ovs', 'tap', 'vhostuser', 'vif']);

type JsonMap = Record<string, unknown>;

export interface NetworkMetadata {
  links: JsonMap[];
  networks: JsonMap[];
  services: JsonMap[];
}

/** The Ironic port and portgroup fields the overlay reads. */
export interface PortLike {
  uuid: string;
  address: string | null;
  internal_info?: Record<string, unknown> | null;
  extra?: Record<string, unknown> | null;
  portgroup_uuid?: string | null;
  mode?: string | null;
  properties?: Record<string, unknown> | null;
}

function firstSubnet(vif: VifSpec, version: 4 | 6): SubnetSpec | undefined {
  return vif.network.subnets.find((s) => ipVersion(s.cidr) === version);
}

function linkMtu(vif: VifSpec): number | null {
  if (vif.network.subnets.some((s) => s.dhcpServer)) return null;
  return vif.network.mtu ?? null;
}

function ethLink(vif: VifSpec, ifcNum: number): JsonMap {
  return {
    id: vif.devname || `interface${ifcNum}`,
    vif_id: vif.id,
    type: vif.type && LEGACY_EXPOSED_VIF_TYPES.has(vif.type) ? vif.type : 'phy',
    mtu: linkMtu(vif),
    ethernet_mac_address: vif.address ?? null,
  };
}

function dnsServices(subnet: SubnetSpec): JsonMap[] {
  return (subnet.dns ?? []).map((address) => ({ type: 'dns', address }));
}

function defaultRoute(version: 4 | 6, subnet: SubnetSpec): JsonMap[] {
  if (!subnet.gateway) return [];
  const any = version === 4 ? '0.0.0.0' : '::';
  return [{ network: any, netmask: any, gateway: subnet.gateway }];
}

function subnetNetwork(vif: VifSpec, subnet: SubnetSpec, version: 4 | 6, netNum: number, linkId: unknown): JsonMap {
  const base = { id: `network${netNum}` };
  if (subnet.ipv6AddressMode === undefined && subnet.dhcpServer !== undefined) {
    return { ...base, type: `ipv${version}_dhcp`, link: linkId, network_id: vif.network.id };
  }
  const routes = defaultRoute(version, subnet);
  for (const r of subnet.routes ?? []) {
    routes.push({ network: networkAddressOf(r.cidr), netmask: netmaskOf(r.cidr), gateway: r.gateway });
  }
  return {
    ...base,
    type: `ipv${version}${subnet.ipv6AddressMode !== undefined ? `_${subnet.ipv6AddressMode}` : ''}`,
    link: linkId,
    ip_address: subnet.ips[0],
    netmask: netmaskOf(subnet.cidr),
    routes,
    network_id: vif.network.id,
    services: dnsServices(subnet),
  };
}

function addServices(into: JsonMap[], from: JsonMap[]): void {
  for (const s of from) if (!into.some((t) => t.type === s.type && t.address === s.address)) into.push(s);
}

/** netutils.get_network_metadata; null when there is no network_info (Nova then writes `{}`). */
export function baseNetworkMetadata(networkInfo: NetworkInfo | undefined): NetworkMetadata | null {
  if (!networkInfo || networkInfo.length === 0) return null;
  const out: NetworkMetadata = { links: [], networks: [], services: [] };
  let ifcNum = -1;
  let netNum = -1;
  for (const vif of networkInfo) {
    if (!vif.network || vif.network.subnets.length === 0) continue;
    const v4 = firstSubnet(vif, 4);
    const v6 = firstSubnet(vif, 6);
    ifcNum += 1;
    const link = v4 || v6 ? ethLink(vif, ifcNum) : null;
    if (link) out.links.push(link);
    for (const [subnet, version] of [[v4, 4], [v6, 6]] as const) {
      if (!subnet || subnet.ips.length === 0 || !link) continue;
      netNum += 1;
      out.networks.push(subnetNetwork(vif, subnet, version, netNum, link.id));
      addServices(out.services, dnsServices(subnet));
    }
  }
  return out;
}

function vifOf(p: PortLike): string | undefined {
  const v = p.internal_info?.tenant_vif_port_id ?? p.extra?.vif_port_id;
  return typeof v === 'string' && v ? v : undefined;
}

function bondLink(link: JsonMap, pg: PortLike, ports: PortLike[], extra: JsonMap[]): void {
  Object.assign(link, { type: 'bond', bond_mode: pg.mode ?? null, bond_links: [] as string[] });
  if (pg.address) link.ethernet_mac_address = pg.address;
  for (const [prop, value] of Object.entries(pg.properties ?? {})) {
    link[prop.startsWith('bond') ? prop : `bond_${prop}`] = value;
  }
  for (const port of ports.filter((p) => p.portgroup_uuid === pg.uuid)) {
    extra.push({ id: port.uuid, type: 'phy', ethernet_mac_address: port.address });
    (link.bond_links as string[]).push(port.uuid);
  }
}

/** driver._get_network_metadata: the base metadata corrected with what Ironic knows of the node. */
export function nodeNetworkMetadata(networkInfo: NetworkInfo | undefined, ports: PortLike[], portgroups: PortLike[]): NetworkMetadata | null {
  const base = baseNetworkMetadata(networkInfo);
  if (!base) return null;
  const byVif = { ports: new Map<string, PortLike>(), portgroups: new Map<string, PortLike>() };
  for (const p of ports) if (vifOf(p)) byVif.ports.set(vifOf(p) as string, p);
  for (const pg of portgroups) if (vifOf(pg)) byVif.portgroups.set(vifOf(pg) as string, pg);
  const additional: JsonMap[] = [];
  for (const link of base.links) {
    const vif = String(link.vif_id);
    const pg = byVif.portgroups.get(vif);
    const port = byVif.ports.get(vif);
    if (pg) bondLink(link, pg, ports, additional);
    else if (port) Object.assign(link, { ethernet_mac_address: port.address, type: 'phy' });
  }
  base.links.push(...additional);
  return base;
}
