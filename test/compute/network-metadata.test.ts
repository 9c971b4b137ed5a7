/**
 * network_data.json as Nova writes it, checked against answers Debian's nova 26 gave for the same
 * network_info (netutils.get_network_metadata), and the ironic driver's port/portgroup overlay.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { baseNetworkMetadata, nodeNetworkMetadata, PortLike } from '../../src/compute/network-metadata';
import { netmaskOf, networkAddressOf } from '../../src/common/ip-address';
import { pyRepr } from '../../src/common/python/repr';
import type { NetworkInfo } from '../../src/compute/types';

const INFO: NetworkInfo = [
  { id: 'v2', address: 'fa:16:3e:00:00:02', type: 'other', network: { id: 'n2', subnets: [] } },
  {
    id: 'v1', address: 'fa:16:3e:00:00:01', type: 'ovs', devname: 'tap1',
    network: {
      id: 'n1', mtu: 1400,
      subnets: [
        { cidr: '10.0.0.0/16', ips: ['10.0.5.5'], gateway: '10.0.0.1', dns: ['10.0.0.2'], dhcpServer: '10.0.0.3' },
        { cidr: '2001:db8:1::/64', ips: ['2001:db8:1::10'], gateway: '2001:db8:1::1', dns: ['2001:db8:1::53'], routes: [{ cidr: '2001:db8:ff::/48', gateway: '2001:db8:1::fe' }], ipv6AddressMode: 'slaac' },
      ],
    },
  },
];

/** json.dumps(netutils.get_network_metadata(...)) from nova 26.2.2 for INFO. */
const NOVA = JSON.parse('{"links": [{"id": "tap1", "vif_id": "v1", "type": "ovs", "mtu": null, "ethernet_mac_address": "fa:16:3e:00:00:01"}], "networks": [{"id": "network0", "type": "ipv4_dhcp", "link": "tap1", "network_id": "n1"}, {"id": "network1", "type": "ipv6_slaac", "link": "tap1", "ip_address": "2001:db8:1::10", "netmask": "ffff:ffff:ffff:ffff::", "routes": [{"network": "::", "netmask": "::", "gateway": "2001:db8:1::1"}, {"network": "2001:db8:ff::", "netmask": "ffff:ffff:ffff::", "gateway": "2001:db8:1::fe"}], "network_id": "n1", "services": [{"type": "dns", "address": "2001:db8:1::53"}]}], "services": [{"type": "dns", "address": "10.0.0.2"}, {"type": "dns", "address": "2001:db8:1::53"}]}') as unknown;

describe('network metadata', () => {
  it('matches Nova for DHCP, SLAAC, extra routes, devname and a VIF without subnets', () => {
    assert.deepEqual(JSON.parse(JSON.stringify(baseNetworkMetadata(INFO))), NOVA);
    assert.deepEqual(Object.keys(baseNetworkMetadata(INFO)?.networks[1] ?? {}), ['id', 'type', 'link', 'ip_address', 'netmask', 'routes', 'network_id', 'services']);
    assert.equal(baseNetworkMetadata([]), null);
  });

  it('takes the MAC of the port that carries the VIF, and makes a bond of a portgroup', () => {
    const info: NetworkInfo = [
      { id: 'vp', address: 'fa:16:3e:00:00:0a', network: { id: 'n', mtu: 1500, subnets: [{ cidr: '192.0.2.0/24', ips: ['192.0.2.5'] }] } },
      { id: 'vg', address: 'fa:16:3e:00:00:0b', network: { id: 'n', subnets: [{ cidr: '192.0.2.0/24', ips: ['192.0.2.6'] }] } },
    ];
    const ports: PortLike[] = [
      { uuid: 'p1', address: '52:54:00:00:00:01', internal_info: { tenant_vif_port_id: 'vp' } },
      { uuid: 'p2', address: '52:54:00:00:00:02', portgroup_uuid: 'g1' },
      { uuid: 'p3', address: '52:54:00:00:00:03', portgroup_uuid: 'g1' },
    ];
    const groups: PortLike[] = [{ uuid: 'g1', address: null, mode: 'active-backup', properties: { miimon: 100, bond_updelay: 5 }, extra: { vif_port_id: 'vg' } }];
    const md = nodeNetworkMetadata(info, ports, groups);
    assert.deepEqual(md?.links, [
      { id: 'interface0', vif_id: 'vp', type: 'phy', mtu: 1500, ethernet_mac_address: '52:54:00:00:00:01' },
      { id: 'interface1', vif_id: 'vg', type: 'bond', mtu: null, ethernet_mac_address: 'fa:16:3e:00:00:0b', bond_mode: 'active-backup', bond_links: ['p2', 'p3'], bond_miimon: 100, bond_updelay: 5 },
      { id: 'p2', type: 'phy', ethernet_mac_address: '52:54:00:00:00:02' },
      { id: 'p3', type: 'phy', ethernet_mac_address: '52:54:00:00:00:03' },
    ]);
  });

  it('writes addresses and masks as netaddr does', () => {
    assert.equal(networkAddressOf('10.1.2.3/8'), '10.0.0.0');
    assert.equal(netmaskOf('10.1.2.3/8'), '255.0.0.0');
    assert.equal(networkAddressOf('2001:db8::1:0:0:1/128'), '2001:db8::1:0:0:1');
    assert.equal(netmaskOf('fe80::/10'), 'ffc0::');
    assert.equal(networkAddressOf('2001:0:0:1::5/64'), '2001:0:0:1::');
  });

  it("quotes validate answers in Python's repr, as Nova's ValidationError text shows them", () => {
    assert.equal(pyRepr({ result: false, reason: "can't deploy" }), `{'result': False, 'reason': "can't deploy"}`);
    assert.equal(pyRepr({ result: true, reason: null }), "{'result': True, 'reason': None}");
  });
});
