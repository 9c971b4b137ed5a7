/**
 * network_data.json as Ironic builds it from Neutron (common/neutron.py get_neutron_port_data),
 * for a ramdisk that must configure its network without DHCP: one `vif` link per Neutron port,
 * one network per fixed IP (with a default route through the subnet's gateway and its host
 * routes) and one DNS service per nameserver of each fixed IP's subnet. This is Ironic's layout,
 * not Nova's (src/compute/network-metadata.ts): the networks are named by subnet id, links by the
 * Neutron port's name, and nothing is merged or deduplicated.
 */
import { netmaskOf, networkAddressOf } from '../ip-address';
import { NetworkError } from '../errors';
import { log } from '../log';
import { objectsIn, type JsonObject } from '../json-value';
import type { NeutronClient } from './client';
import { NeutronApiError } from './errors';

/** One port's part of network_data.json, in Ironic's key order. */
interface PortNetworkData {
  links: JsonObject[];
  networks: JsonObject[];
  services: JsonObject[];
}

const FIELDS = ['links', 'networks', 'services'] as const;

/** One Neutron read, a failure worded as Ironic words it (`what` names the object). */
async function read(what: string, load: () => Promise<JsonObject>): Promise<JsonObject> {
  try {
    return await load();
  } catch (err) {
    if (!(err instanceof NeutronApiError)) throw err;
    const msg = `Unable to get ${what}. Error: ${err.message}`;
    log.error(msg);
    throw new NetworkError(msg);
  }
}

/** The gateway's default route ('::0' for IPv6, as Ironic writes it), then the subnet's host routes. */
function routesOf(subnet: JsonObject): JsonObject[] {
  const routes: JsonObject[] = [];
  if (subnet.gateway_ip) {
    const zero = subnet.ip_version === 6 ? '::0' : '0.0.0.0';
    routes.push({ network: zero, netmask: zero, gateway: subnet.gateway_ip });
  }
  for (const route of objectsIn(subnet.host_routes)) {
    const destination = String(route.destination);
    routes.push({ network: networkAddressOf(destination), netmask: netmaskOf(destination), gateway: route.nexthop });
  }
  return routes;
}

/**
 * get_neutron_port_data: the network_data.json pieces of the Neutron port `vifId` plugged into the
 * Ironic port (or portgroup) `portId`; the link is named after the Neutron port when it has a name.
 */
async function neutronPortData(client: NeutronClient, portId: string, vifId: string): Promise<PortNetworkData> {
  const port = await read(`port info for ${vifId}`, () => client.getPort(vifId));
  const linkId = (typeof port.name === 'string' && port.name) || portId;
  const networkId = port.network_id;
  const network = await read(`network info for ${String(networkId)}`, () => client.getNetwork(String(networkId)));
  const data: PortNetworkData = {
    links: [{ id: linkId, type: 'vif', ethernet_mac_address: port.mac_address, vif_id: port.id, mtu: network.mtu }],
    networks: [],
    services: [],
  };
  for (const fixedIp of objectsIn(port.fixed_ips)) {
    const subnetId = String(fixedIp.subnet_id);
    // Ironic reads the subnet once per fixed IP, even when two fixed IPs share it.
    const subnet = await read(`subnet info for ${subnetId}`, () => client.getSubnet(subnetId));
    data.networks.push({
      id: fixedIp.subnet_id, network_id: networkId, type: `ipv${String(subnet.ip_version)}`, link: linkId,
      ip_address: fixedIp.ip_address, netmask: netmaskOf(String(subnet.cidr)), routes: routesOf(subnet),
    });
    for (const address of Array.isArray(subnet.dns_nameservers) ? subnet.dns_nameservers : []) {
      data.services.push({ type: 'dns', address });
    }
  }
  return data;
}

/**
 * NeutronVIFPortIDMixin.get_node_network_data's gathering: each port's data (for its current VIF)
 * appended, a field present once some port gave it entries; `{}` when no port has a VIF.
 */
export async function neutronNodeNetworkData(client: NeutronClient, ports: readonly { uuid: string; vif: string | null }[]): Promise<JsonObject> {
  const out: Partial<PortNetworkData> = {};
  for (const { uuid, vif } of ports) {
    if (!vif) continue;
    const data = await neutronPortData(client, uuid, vif);
    for (const field of FIELDS) {
      if (data[field].length) out[field] = [...(out[field] ?? []), ...data[field]];
    }
  }
  return out as JsonObject;
}
