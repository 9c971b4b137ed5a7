/**
 * Addressing on a real Neutron 26 (with the `segments` service plugin, behind a real Keystone),
 * ironic-ts driven with Debian 13's `baremetal` CLI, each against what Ironic 29.0.5 does:
 *
 *  - DHCPv6-stateful: a provisioning port on a network whose subnet has ipv6_address_mode
 *    dhcpv6-stateful reserves [neutron]dhcpv6_stateful_address_count (4) addresses there.
 *  - Routed networks: a VIF whose fixed IP sits on one segment's subnet goes to the node's port
 *    on that segment's physical network; a node without one refuses it (not enough free ports).
 *  - get_node_network_data: ironic-ts's neutron interface and 29.0.5's own NeutronNetwork (run
 *    in the Debian 13 root's python3 against the same Neutron) give the same document, key order
 *    included, for ports with named and unnamed, dual-stack VIFs.
 */
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { JsonObject } from '../../src/common/json-value';
import { Config } from '../../src/conf/config';
import type { PortRecord } from '../../src/db/models';
import type { DriverTask } from '../../src/drivers/base';
import { createNeutronNetwork } from '../../src/drivers/network/neutron';
import { ensureDebian13 } from '../support/debian13-root';
import { TEST_PROJECT, type NeutronRow } from '../support/neutron';
import { DEBIAN13_CLIENTS } from '../support/python';
import { API, LLC, neutronSection, startNeutronLab, type NeutronLab } from './neutron-lab';

let lab: NeutronLab;

before(async () => {
  await ensureDebian13(['python3-ironic']);
  lab = await startNeutronLab('neutron-addr', { neutron: { servicePlugins: ['segments'] } });
}, { timeout: 20 * 60_000 });

after(async () => {
  await lab?.stop();
});

async function create<T = NeutronRow>(kind: string, body: NeutronRow): Promise<T> {
  const key = kind.replace(/s$/, '');
  return (await lab.neutron.api<Record<string, T>>('POST', `/${kind}`, { [key]: { project_id: TEST_PROJECT, ...body } }))[key];
}

/** The node's ports as the API shows them (uuid, address, physical_network, internal_info). */
async function portsOf(uuid: string): Promise<Record<string, any>[]> {
  const res = await fetch(`${lab.target.url}/v1/ports?node=${uuid}&detail=True`, { headers: { 'X-OpenStack-Ironic-API-Version': API } });
  return ((await res.json()) as { ports: Record<string, any>[] }).ports;
}

test('a provisioning port on a dhcpv6-stateful subnet holds [neutron]dhcpv6_stateful_address_count addresses', async () => {
  const net = await create('networks', { name: 'v6-provisioning', 'provider:network_type': 'flat', 'provider:physical_network': 'physnet6' });
  const subnet = await create('subnets', {
    network_id: net.id, ip_version: 6, cidr: 'fd00:60::/64', ipv6_address_mode: 'dhcpv6-stateful', enable_dhcp: true,
  });
  const mac = '52:54:00:6e:60:01';
  const uuid = await lab.enroll('addr-v6', 'neutron', mac, LLC(60));
  await lab.bm(['node', 'set', uuid, '--driver-info', `provisioning_network=${String(net.id)}`]);
  await lab.provide(uuid);
  await lab.bm(['node', 'deploy', uuid]);
  await lab.waitState(uuid, 'wait call-back');
  const ports = await lab.portsOn(String(net.id), mac);
  assert.equal(ports.length, 1, 'one provisioning port');
  const fixedIps = ports[0].fixed_ips as { subnet_id: string; ip_address: string }[];
  assert.equal(fixedIps.length, 4, `four addresses: ${JSON.stringify(fixedIps)}`);
  assert.ok(fixedIps.every((ip) => ip.subnet_id === subnet.id), 'all on the stateful subnet');
  assert.equal(new Set(fixedIps.map((ip) => ip.ip_address)).size, 4, 'four distinct addresses');
});

/** A routed network: flat segments on physnet-a and physnet-b, a subnet on each; the subnet ids by physnet. */
async function routedNetwork(): Promise<{ id: string; subnets: Record<'a' | 'b', string> }> {
  const net = await create('networks', { name: 'routed', segments: [
    { 'provider:network_type': 'flat', 'provider:physical_network': 'physnet-a' },
    { 'provider:network_type': 'flat', 'provider:physical_network': 'physnet-b' },
  ] });
  const segments = (await lab.neutron.api<{ segments: NeutronRow[] }>('GET', `/segments?network_id=${String(net.id)}`)).segments;
  const subnets = { a: '', b: '' };
  for (const [which, cidr] of [['a', '10.70.1.0/24'], ['b', '10.70.2.0/24']] as const) {
    const segment = segments.find((s) => s.physical_network === `physnet-${which}`);
    assert.ok(segment, `segment on physnet-${which}`);
    subnets[which] = String((await create('subnets', { network_id: net.id, segment_id: segment.id, ip_version: 4, cidr })).id);
  }
  return { id: String(net.id), subnets };
}

test('routed network: the VIF goes to the port on its subnet segment\'s physical network, else no free port', async () => {
  const routed = await routedNetwork();
  const vifB = await lab.neutron.createPort(routed.id, { name: 'routed-vif-b', fixed_ips: [{ subnet_id: routed.subnets.b }] });

  const uuid = await lab.enroll('addr-routed', 'neutron', '52:54:00:6e:70:0a', LLC(70));
  const [portA] = await portsOf(uuid);
  await lab.bm(['port', 'set', portA.uuid, '--physical-network', 'physnet-a']);
  await lab.bm(['port', 'create', '52:54:00:6e:70:0b', '--node', uuid, '--physical-network', 'physnet-b', '--pxe-enabled', 'false',
    ...Object.entries(LLC(71)).flatMap(([k, v]) => ['--local-link-connection', `${k}=${v}`])]);
  await lab.bm(['node', 'vif', 'attach', uuid, String(vifB.id)]);
  const withVif = (await portsOf(uuid)).filter((p) => p.internal_info?.tenant_vif_port_id === vifB.id);
  assert.deepEqual(withVif.map((p) => p.address), ['52:54:00:6e:70:0b'], 'the physnet-b port took the VIF');
  assert.equal((await lab.neutron.showPort(String(vifB.id)))?.mac_address, '52:54:00:6e:70:0b');

  const onlyA = await lab.enroll('addr-routed-a', 'neutron', '52:54:00:6e:70:0c', LLC(72));
  const [onlyPort] = await portsOf(onlyA);
  await lab.bm(['port', 'set', onlyPort.uuid, '--physical-network', 'physnet-a']);
  const vifB2 = await lab.neutron.createPort(routed.id, { name: 'routed-vif-b2', fixed_ips: [{ subnet_id: routed.subnets.b }] });
  const refused = await DEBIAN13_CLIENTS.baremetal(lab.target.url, ['node', 'vif', 'attach', onlyA, String(vifB2.id)], API);
  assert.notEqual(refused.code, 0);
  assert.match(refused.stderr, new RegExp(`Unable to attach VIF ${String(vifB2.id)}, not enough free physical ports\\. \\(HTTP 400\\)`));
});

const NODE_UUID = '1be26c0b-03f2-4d2e-ae87-c02d7f33c123';

/** A node's ports, as both implementations are given them. */
interface PortSpec { uuid: string; internal_info: JsonObject }

/** 29.0.5's NeutronNetwork().get_node_network_data in the Debian 13 root, on the lab's Neutron. */
async function referenceNetworkData(ports: PortSpec[], networkData: JsonObject): Promise<unknown> {
  const conf = neutronSection(lab.ks.url, lab.neutron.url);
  const script = `
import json, sys, tempfile, types
conf = tempfile.NamedTemporaryFile('w', suffix='.conf', delete=False)
conf.write(${JSON.stringify(conf)})
conf.close()
from ironic.conf import CONF
CONF(['--config-file', conf.name], project='ironic')
from ironic.drivers.modules.network import neutron
ports = [types.SimpleNamespace(**p) for p in json.loads(${JSON.stringify(JSON.stringify(ports))})]
node = types.SimpleNamespace(uuid=${JSON.stringify(NODE_UUID)}, network_data=json.loads(${JSON.stringify(JSON.stringify(networkData))}))
task = types.SimpleNamespace(node=node, ports=ports, portgroups=[], context=None)
print(json.dumps(neutron.NeutronNetwork().get_node_network_data(task)))
`;
  const res = await DEBIAN13_CLIENTS.python(script, lab.target.url);
  assert.equal(res.code, 0, `29.0.5's get_node_network_data: ${res.stderr}`);
  return JSON.parse(res.stdout);
}

async function ourNetworkData(ports: PortSpec[], networkData: JsonObject): Promise<unknown> {
  const file = path.join(lab.dir, 'network-data.conf');
  await fsp.writeFile(file, neutronSection(lab.ks.url, lab.neutron.url));
  const task = {
    ctx: { conf: new Config([file]) },
    node: { uuid: NODE_UUID, network_data: networkData },
    ports: ports.map((p) => ({ ...p, address: null, extra: {} }) as unknown as PortRecord),
    portgroups: [],
  } as unknown as DriverTask;
  return createNeutronNetwork().getNodeNetworkData(task);
}

test('get_node_network_data: the same network_data.json as 29.0.5\'s, key order included', async () => {
  const net = await create('networks', { name: 'data-net', 'provider:network_type': 'flat', 'provider:physical_network': 'physnet7' });
  await create('subnets', {
    network_id: net.id, ip_version: 4, cidr: '10.80.0.0/24', gateway_ip: '10.80.0.1', dns_nameservers: ['10.80.0.53', '10.80.0.54'],
    host_routes: [{ destination: '192.168.77.0/24', nexthop: '10.80.0.254' }],
  });
  await create('subnets', {
    network_id: net.id, ip_version: 6, cidr: 'fd00:80::/64', ipv6_address_mode: 'dhcpv6-stateful', dns_nameservers: ['fd00:80::53'],
    host_routes: [{ destination: 'fd00:99:0:0:1::/80', nexthop: 'fd00:80::fe' }],
  });
  const bare = await create('networks', { name: 'bare-net', 'provider:network_type': 'flat', 'provider:physical_network': 'physnet8' });
  const named = await lab.neutron.createPort(String(net.id), { name: 'eth-data', mac_address: '52:54:00:6e:80:01' });
  const unnamed = await lab.neutron.createPort(String(net.id), { mac_address: '52:54:00:6e:80:02' });
  const noIps = await lab.neutron.createPort(String(bare.id), { mac_address: '52:54:00:6e:80:03' });
  const ports: PortSpec[] = [
    { uuid: '5d0c5b8e-0000-4000-8000-000000000001', internal_info: { tenant_vif_port_id: String(named.id) } },
    { uuid: '5d0c5b8e-0000-4000-8000-000000000002', internal_info: {} },
    // The current VIF: a provisioning port wins over the tenant VIF.
    { uuid: '5d0c5b8e-0000-4000-8000-000000000003', internal_info: { tenant_vif_port_id: String(named.id), provisioning_vif_port_id: String(unnamed.id) } },
    { uuid: '5d0c5b8e-0000-4000-8000-000000000004', internal_info: { tenant_vif_port_id: String(noIps.id) } },
  ];
  const ours = await ourNetworkData(ports, {});
  const reference = await referenceNetworkData(ports, {});
  assert.equal(JSON.stringify(ours), JSON.stringify(reference));
  const doc = ours as { links: JsonObject[]; networks: JsonObject[]; services: JsonObject[] };
  assert.deepEqual(doc.links.map((l) => l.id), ['eth-data', ports[2].uuid, ports[3].uuid], 'a named VIF names its link');
  assert.equal(doc.networks.length, 4, 'two fixed IPs on each dual-stack port, none on the bare one');
  assert.deepEqual(doc.services.map((s) => s.address), ['10.80.0.53', '10.80.0.54', 'fd00:80::53', '10.80.0.53', '10.80.0.54', 'fd00:80::53']);

  const own = { links: [{ id: 'static', type: 'phy', ethernet_mac_address: '52:54:00:6e:80:09' }], networks: [], services: [] };
  assert.deepEqual(await ourNetworkData(ports, own), own, 'the node\'s own network_data wins');
  assert.deepEqual(await referenceNetworkData(ports, own), own);
  assert.deepEqual(await ourNetworkData(ports.slice(1, 2), {}), {}, 'no VIF: nothing');
  assert.deepEqual(await referenceNetworkData(ports.slice(1, 2), {}), {});
});
