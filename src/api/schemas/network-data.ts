/**
 * The OpenStack network_data document a node may carry (API 1.66+), as a JSON Schema: `links`
 * (physical, bond and VLAN interfaces), `networks` (IPv4 and IPv6, static or DHCP, with routes)
 * and `services` (DNS). Ironic checks node network_data against its network-data schema on create
 * and on PATCH of /network_data; the structure below (required members, types, enumerations, one
 * branch per link and network kind) follows that document format so that the same documents pass
 * and fail, with python-jsonschema's messages.
 */
import type { Schema } from '../../common/jsonschema';

const MAC = { type: 'string', pattern: '^(?:[0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}$' } as const satisfies Schema;
const MTU: Schema = { anyOf: [{ type: 'number', minimum: 1, maximum: 65535 }, { type: 'null' }] };
const TEXT: Schema = { type: 'string' };

const OCTET = '(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)';
const IPV4: Schema = { type: 'string', pattern: `^${OCTET}(?:\\.${OCTET}){3}$` };
const IPV4_NETMASK: Schema = {
  type: 'string',
  pattern: '^(?:(?:255\\.){3}(?:255|254|252|248|240|224|192|128|0)|(?:255\\.){2}(?:254|252|248|240|224|192|128|0)\\.0|' +
    '255\\.(?:254|252|248|240|224|192|128|0)(?:\\.0){2}|(?:254|252|248|240|224|192|128|0)(?:\\.0){3})$',
};
/** Hex groups and colons, an optional dotted IPv4 tail, zone and prefix length: every IPv6 spelling passes. */
const IPV6: Schema = { type: 'string', pattern: '^(?=.*:)[0-9A-Fa-f:]*(?:\\d{1,3}(?:\\.\\d{1,3}){3})?(?:%[0-9A-Za-z]+)?(?:/\\d{1,3})?$' };

const l2Common = (macKey: string): Record<string, Schema> => ({ [macKey]: MAC, mtu: MTU });

const PHYSICAL_LINK: Schema = {
  type: 'object',
  required: ['ethernet_mac_address', 'id', 'type'],
  properties: {
    ...l2Common('ethernet_mac_address'),
    type: { type: 'string', enum: ['bridge', 'dvs', 'hw_veb', 'hyperv', 'ovs', 'tap', 'vhostuser', 'vif', 'phy'] },
    vif_id: TEXT,
  },
};

const BOND_LINK: Schema = {
  type: 'object',
  required: ['ethernet_mac_address', 'id', 'type', 'bond_mode', 'bond_links'],
  properties: {
    ...l2Common('ethernet_mac_address'),
    type: { type: 'string', enum: ['bond'] },
    vif_id: TEXT,
    bond_mode: {
      type: 'string',
      enum: ['802.1ad', 'balance-rr', 'active-backup', 'balance-xor', 'broadcast', 'balance-tlb', 'balance-alb'],
    },
    bond_links: { type: 'array', items: TEXT },
  },
};

const VLAN_LINK: Schema = {
  type: 'object',
  required: ['vlan_mac_address', 'id', 'type', 'vlan_link', 'vlan_id'],
  properties: {
    ...l2Common('vlan_mac_address'),
    type: { type: 'string', enum: ['vlan'] },
    vif_id: TEXT,
    vlan_id: { type: 'integer' },
    vlan_link: TEXT,
  },
};

const dnsService = (address: Schema): Schema => ({
  type: 'object',
  required: ['address', 'type'],
  properties: { address, type: { type: 'string', enum: ['dns'] } },
});

function route(address: Schema, netmask: Schema): Schema {
  return {
    type: 'object',
    required: ['gateway', 'netmask', 'network'],
    properties: { network: address, netmask, gateway: address, services: { type: 'array', items: dnsService(address) } },
  };
}

function network(types: string[], address: Schema, netmask: Schema): Schema {
  return {
    type: 'object',
    required: ['id', 'link', 'network_id', 'type'],
    properties: {
      link: TEXT,
      network_id: TEXT,
      type: { type: 'string', enum: types },
      ip_address: address,
      netmask,
      routes: { type: 'array', items: route(address, netmask) },
    },
  };
}

export const NETWORK_DATA_SCHEMA: Schema = {
  type: 'object',
  required: ['links', 'networks', 'services'],
  properties: {
    links: { type: 'array', items: { oneOf: [PHYSICAL_LINK, BOND_LINK, VLAN_LINK] } },
    networks: {
      type: 'array',
      items: {
        oneOf: [
          network(['ipv4', 'ipv4_dhcp'], IPV4, IPV4_NETMASK),
          network(['ipv6', 'ipv6_dhcp', 'ipv6_slaac'], IPV6, IPV6),
        ],
      },
    },
    services: { type: 'array', items: { anyOf: [dnsService(IPV4), dnsService(IPV6)] } },
  },
};
