/**
 * The Neutron calls of 29.0.5's addressing helpers against a scripted Networking API over a real
 * socket: which requests (and bodies) DHCPv6-stateful reservations make, how a routed network's
 * physical network is found from the VIF's subnet segment, and the errors of both and of
 * get_neutron_port_data. The real-Neutron side: compat-tests/network/neutron-addressing.test.ts.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, test } from 'node:test';
import { NeutronClient } from '../../../src/common/neutron/client';
import { neutronNodeNetworkData } from '../../../src/common/neutron/network-data';
import { addPortsToNetwork, physnetsOfVif } from '../../../src/common/neutron/ports';
import { Config } from '../../../src/conf/config';
import type { PortRecord } from '../../../src/db/models';

type Body = Record<string, unknown>;

let server: Server;
let client: NeutronClient;
/** `METHOD /path` → [status, body]; anything else is a 500. */
const routes = new Map<string, [number, Body]>();
const seen: { call: string; body: Body | null }[] = [];

before(async () => {
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => { text += c.toString(); });
    req.on('end', () => {
      const call = `${req.method} ${(req.url ?? '').replace(/^\/v2\.0/, '')}`;
      seen.push({ call, body: text ? (JSON.parse(text) as Body) : null });
      const [status, body] = routes.get(call) ?? [500, { message: `unscripted ${call}` }];
      res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  client = new NeutronClient(new Config([], { neutron: { endpoint_override: `http://127.0.0.1:${(server.address() as AddressInfo).port}` } }));
});

after(() => new Promise<void>((r) => server.close(() => r())));

beforeEach(() => {
  routes.clear();
  seen.length = 0;
});

const notFound = (what: string): [number, Body] => [404, { NeutronError: { type: 'NotFound', message: `${what} could not be found.`, detail: '' } }];

const PORT = {
  uuid: 'ironic-port-1', address: '52:54:00:00:00:01', pxe_enabled: true, extra: {}, internal_info: {},
  local_link_connection: { switch_id: '0a:1b:2c:3d:4e:5f', port_id: 'Eth1', switch_info: 'tor' },
} as unknown as PortRecord;
const TASK = { node: { uuid: 'node-1', instance_uuid: null, network_interface: 'neutron' }, ports: [PORT], portgroups: [] };

function scriptServicePort(fixedIps: Body[]): void {
  routes.set('POST /ports', [201, { port: { id: 'np1', fixed_ips: fixedIps } }]);
  routes.set('GET /ports/np1', [200, { port: { id: 'np1', fixed_ips: fixedIps } }]);
  routes.set('PUT /ports/np1', [200, { port: { id: 'np1', fixed_ips: fixedIps } }]);
  routes.set('GET /subnets/v6', [200, { subnet: { id: 'v6', ipv6_address_mode: 'dhcpv6-stateful' } }]);
  routes.set('GET /subnets/slaac', [200, { subnet: { id: 'slaac', ipv6_address_mode: 'slaac' } }]);
}

const add = (count: number) => addPortsToNetwork(client, TASK, 'net1',
  { addAllPorts: false, conf: new Config([], { neutron: { dhcpv6_stateful_address_count: count } }) });

test('a port whose first fixed IP is on a dhcpv6-stateful subnet asks for count-1 more there, its other fixed IPs kept', async () => {
  const fixedIps = [{ subnet_id: 'v6', ip_address: 'fd00::5' }, { subnet_id: 'v4', ip_address: '10.0.0.5' }];
  scriptServicePort(fixedIps);
  assert.deepEqual([...await add(3)], [['ironic-port-1', 'np1']]);
  assert.deepEqual(seen.map((s) => s.call), ['POST /ports', 'GET /ports/np1', 'PUT /ports/np1', 'GET /subnets/v6', 'PUT /ports/np1']);
  assert.deepEqual(seen[4].body, { port: { fixed_ips: [...fixedIps, { subnet_id: 'v6' }, { subnet_id: 'v6' }] } });
});

test('no reservations for an IPv4 first address, a SLAAC subnet, or a count of 1', async () => {
  scriptServicePort([{ subnet_id: 'v4', ip_address: '10.0.0.5' }, { subnet_id: 'v6', ip_address: 'fd00::5' }]);
  await add(4);
  assert.deepEqual(seen.map((s) => s.call), ['POST /ports', 'GET /ports/np1', 'PUT /ports/np1']);
  seen.length = 0;
  scriptServicePort([{ subnet_id: 'slaac', ip_address: 'fd00::5' }]);
  await add(4);
  assert.deepEqual(seen.map((s) => s.call), ['POST /ports', 'GET /ports/np1', 'PUT /ports/np1', 'GET /subnets/slaac']);
  seen.length = 0;
  scriptServicePort([{ subnet_id: 'v6', ip_address: 'fd00::5' }]);
  await add(1);
  assert.deepEqual(seen.map((s) => s.call), ['POST /ports', 'GET /ports/np1', 'PUT /ports/np1']);
});

test('a failed subnet read fails that port as a failed create does (all failed: rolled back, NetworkError)', async () => {
  scriptServicePort([{ subnet_id: 'gone', ip_address: 'fd00::5' }]);
  routes.set('GET /subnets/gone', notFound('Subnet gone'));
  routes.set('GET /ports?network_id=net1&mac_address=52%3A54%3A00%3A00%3A00%3A01', [200, { ports: [{ id: 'np1' }] }]);
  routes.set('DELETE /ports/np1', [204, {}]);
  await assert.rejects(add(4), { name: 'NetworkError', message: "Failed to create neutron ports for node's node-1 ports ironic-port-1." });
  assert.ok(seen.some((s) => s.call === 'DELETE /ports/np1'), 'rolled back');
});

function routed(fixedIps: Body[], segments: Body[] | undefined): void {
  routes.set('GET /ports/vif', [200, { port: { id: 'vif', network_id: 'rn', fixed_ips: fixedIps } }]);
  routes.set('GET /networks/rn', [200, { network: { id: 'rn', ...(segments ? { segments } : { 'provider:physical_network': 'solo' }) } }]);
}

const SEGMENTS = [{ 'provider:physical_network': 'pa' }, { 'provider:physical_network': 'pb' }, { 'provider:physical_network': null }];

test('routed network: the first fixed IP whose subnet sits on a segment with a physnet decides', async () => {
  routed([{ subnet_id: 'plain' }, { subnet_id: 'tunnel' }, { subnet_id: 'onb' }], SEGMENTS);
  routes.set('GET /subnets/plain', [200, { subnet: { id: 'plain', segment_id: null } }]);
  routes.set('GET /subnets/tunnel', [200, { subnet: { id: 'tunnel', segment_id: 'sv' } }]);
  routes.set('GET /segments/sv', [200, { segment: { id: 'sv', physical_network: null } }]);
  routes.set('GET /subnets/onb', [200, { subnet: { id: 'onb', segment_id: 'sb' } }]);
  routes.set('GET /segments/sb', [200, { segment: { id: 'sb', physical_network: 'pb' } }]);
  assert.deepEqual([...await physnetsOfVif(client, 'vif')], ['pb']);
});

test('routed network without a segment for the port\'s subnets: every segment\'s physnet; one segment: the network\'s', async () => {
  routed([{ subnet_id: 'plain' }], SEGMENTS);
  routes.set('GET /subnets/plain', [200, { subnet: { id: 'plain' } }]);
  assert.deepEqual([...await physnetsOfVif(client, 'vif')], ['pa', 'pb']);
  routed([{ subnet_id: 'plain' }], undefined);
  seen.length = 0;
  assert.deepEqual([...await physnetsOfVif(client, 'vif')], ['solo']);
  assert.ok(!seen.some((s) => s.call.startsWith('GET /subnets')), 'a single-segment network\'s subnets are not read');
});

test('routed network: a missing subnet or segment is InvalidParameterValue, other failures NetworkError', async () => {
  routed([{ subnet_id: 'gone' }], SEGMENTS);
  routes.set('GET /subnets/gone', notFound('Subnet gone'));
  await assert.rejects(physnetsOfVif(client, 'vif'), { name: 'InvalidParameterValue', message: 'Neutron subnet gone was not found' });
  routed([{ subnet_id: 'ons' }], SEGMENTS);
  routes.set('GET /subnets/ons', [200, { subnet: { id: 'ons', segment_id: 'sx' } }]);
  routes.set('GET /segments/sx', notFound('Segment sx'));
  await assert.rejects(physnetsOfVif(client, 'vif'), { name: 'InvalidParameterValue', message: 'Neutron segment sx was not found' });
  routes.set('GET /segments/sx', [403, { NeutronError: { message: 'no' } }]);
  await assert.rejects(physnetsOfVif(client, 'vif'), (err: Error) => err.name === 'NetworkError' &&
    /^Could not retrieve neutron segment: ForbiddenException: 403: Client Error for url: .*\/v2\.0\/segments\/sx, no$/.test(err.message));
});

test('get_neutron_port_data: a failed read is a NetworkError naming what could not be read', async () => {
  routes.set('GET /ports/vif', notFound('Port vif'));
  await assert.rejects(neutronNodeNetworkData(client, [{ uuid: 'p', vif: 'vif' }]), (err: Error) => err.name === 'NetworkError' &&
    /^Unable to get port info for vif\. Error: NotFoundException: 404: /.test(err.message));
  routes.set('GET /ports/vif', [200, { port: { id: 'vif', name: '', network_id: 'n', mac_address: 'm', fixed_ips: [{ subnet_id: 's', ip_address: '10.0.0.2' }] } }]);
  await assert.rejects(neutronNodeNetworkData(client, [{ uuid: 'p', vif: 'vif' }]), /^NetworkError: Unable to get network info for n\. Error: /);
  routes.set('GET /networks/n', [200, { network: { id: 'n', mtu: 1500 } }]);
  await assert.rejects(neutronNodeNetworkData(client, [{ uuid: 'p', vif: 'vif' }]), /^NetworkError: Unable to get subnet info for s\. Error: /);
  routes.set('GET /subnets/s', [200, { subnet: { id: 's', ip_version: 4, cidr: '10.0.0.0/25', gateway_ip: null, host_routes: [], dns_nameservers: [] } }]);
  assert.deepEqual(await neutronNodeNetworkData(client, [{ uuid: 'p', vif: 'vif' }]), {
    links: [{ id: 'p', type: 'vif', ethernet_mac_address: 'm', vif_id: 'vif', mtu: 1500 }],
    networks: [{ id: 's', network_id: 'n', type: 'ipv4', link: 'p', ip_address: '10.0.0.2', netmask: '255.255.255.128', routes: [] }],
  });
});
