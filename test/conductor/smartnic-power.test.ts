/**
 * Smart NIC ports in the conductor's network changes (conductor/utils.py power_on_node_if_needed /
 * restore_power_state_if_needed, common/neutron.py's Smart NIC branch), with fake-hardware, the
 * neutron network interface and a scripted Neutron over HTTP: a powered-off node with a Smart NIC
 * port is set to boot its BIOS and powered on, Ironic waits for the NIC's agent to go down (the NIC
 * restarts with its host) and then up, binds its ports to the NIC's hostname with vnic_type
 * smart-nic, waits for them to go ACTIVE and powers the node off again. Without a Smart NIC port
 * nothing of that happens; with a dead agent the change fails and the node stays on.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, test } from 'node:test';
import { NetworkError } from '../../src/common/errors';
import { startConductorService, type ConductorService } from '../../src/conductor/service';
import type { ManagementInterface } from '../../src/drivers/base';
import { prepareInbandCleaning } from '../../src/drivers/agent/inband-cleaning';
import { registerInterface } from '../../src/drivers/catalog';
import { switchToTenantNetwork } from '../../src/drivers/deploy/tenant-network';
import { createFakeManagement } from '../../src/drivers/management/fake';
import * as nodeRepo from '../../src/db/repositories/nodes';
import { ALL_FAKE, makeConf, sqliteDb, type TempDb } from './support';

const HOST = 'smartnic-host-1';
const SMARTNIC_LLC = { port_id: 'rep0-0', hostname: HOST };
const SWITCH_LLC = { port_id: 'Ethernet1/1', switch_id: '0a:1b:2c:3d:4e:5f' };

/** Everything that happened, in order: Neutron requests and the node's boot device and power changes. */
const events: string[] = [];
/** What the NIC's agent answers, one per GET /agents (then `agentDefault`). */
let agentAnswers: boolean[] = [];
let agentDefault = true;
const bodies = new Map<string, unknown>();

registerInterface('management', 'bios-capable', (): ManagementInterface => ({
  ...createFakeManagement(), name: 'bios-capable', className: 'BiosCapableManagement',
  async setBootDevice(_task, device, persistent) {
    events.push(`boot device ${device}${persistent ? ' persistent' : ''}`);
  },
}));

function neutronReply(req: IncomingMessage, body: string): [number, unknown] {
  const url = new URL(req.url ?? '/', 'http://x');
  const key = `${req.method} ${url.pathname}`;
  if (body) bodies.set(key, JSON.parse(body));
  if (key === 'GET /v2.0/agents') {
    const alive = agentAnswers.length ? agentAnswers.shift() : agentDefault;
    return [200, { agents: [{ id: 'agent-1', host: url.searchParams.get('host'), agent_type: 'Open vSwitch agent', alive }] }];
  }
  if (key.startsWith('GET /v2.0/networks/')) return [200, { network: { id: url.pathname.split('/').pop() } }];
  if (key === 'GET /v2.0/ports') return [200, { ports: [] }];
  if (key === 'POST /v2.0/ports') return [201, { port: { id: 'np-1', status: 'DOWN' } }];
  if (/^(GET|PUT) \/v2\.0\/ports\//.test(key)) return [200, { port: { id: url.pathname.split('/').pop(), status: 'ACTIVE' } }];
  return [404, { NeutronError: { message: `unexpected ${key}` } }];
}

let server: Server;
let tmp: TempDb;
let svc: ConductorService;

before(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => { body += c.toString(); });
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      events.push(`${req.method} ${url.pathname}${url.pathname === '/v2.0/agents' ? url.search : ''}`);
      const [status, answer] = neutronReply(req, body);
      res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const neutronUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  tmp = await sqliteDb();
  svc = await startConductorService({
    conf: makeConf('smartnic-host', {
      DEFAULT: {
        enabled_network_interfaces: ['flat', 'noop', 'neutron'],
        enabled_management_interfaces: [...ALL_FAKE.enabled_management_interfaces, 'bios-capable'],
      },
      neutron: { endpoint_override: neutronUrl, cleaning_network: 'cleaning-net', provisioning_network: 'prov-net' },
      agent: { neutron_agent_max_attempts: 3, neutron_agent_status_retry_interval: 0, neutron_agent_poll_interval: 0 },
    }),
    db: tmp.db,
  });
});

after(async () => {
  await svc.stop();
  await tmp.cleanup();
  await new Promise<void>((r) => server.close(() => r()));
});

beforeEach(() => {
  events.length = 0;
  bodies.clear();
  agentAnswers = [];
  agentDefault = true;
});

let macs = 0;
async function nodeWithPort(name: string, power: string, port: { is_smartnic: boolean; llc: Record<string, string>; vif?: string }) {
  const node = await svc.api.createNode({
    name, driver: 'fake-hardware', network_interface: 'neutron', management_interface: 'bios-capable', power_state: power,
  });
  await tmp.db.knex('nodes').where({ uuid: node.uuid }).update({ provision_state: 'cleaning' });
  await svc.api.createPort({
    node_id: node.id, address: `52:54:00:5a:00:${(++macs).toString(16).padStart(2, '0')}`, pxe_enabled: true,
    is_smartnic: port.is_smartnic, local_link_connection: port.llc, ...(port.vif ? { internal_info: { tenant_vif_port_id: port.vif } } : {}),
  });
  return node;
}

/** Runs `body` on the node's task, recording its power actions among the events. */
function onTask(uuid: string, body: Parameters<ConductorService['manager']['tasks']['run']>[2]) {
  return svc.manager.tasks.run(uuid, { purpose: 'test' }, async (task) => {
    const original = task.powerAction.bind(task);
    task.powerAction = async (state: string, timeout?: number) => { events.push(state); await original(state, timeout); };
    return body(task);
  });
}

test('a powered-off node with a Smart NIC port: BIOS boot, on, agent down then up, port bound to the NIC host, ACTIVE, off again', async () => {
  const node = await nodeWithPort('snic-clean', 'power off', { is_smartnic: true, llc: SMARTNIC_LLC });
  // The NIC restarts with its host: still up at first, then down; up again when the ports are made.
  agentAnswers = [true, false];
  const result = await onTask(node.uuid, (task) => prepareInbandCleaning(task, false));
  assert.equal(result, 'clean wait');
  assert.deepEqual(events, [
    'boot device bios', 'power on',
    `GET /v2.0/agents?host=${HOST}`, `GET /v2.0/agents?host=${HOST}`,
    'GET /v2.0/networks/cleaning-net', 'GET /v2.0/ports',
    `GET /v2.0/agents?host=${HOST}`, 'POST /v2.0/ports', 'GET /v2.0/ports/np-1', 'PUT /v2.0/ports/np-1', 'GET /v2.0/ports/np-1',
    'power off', 'rebooting',
  ]);
  assert.equal((bodies.get('POST /v2.0/ports') as { port: Record<string, unknown> }).port['binding:vnic_type'], 'smart-nic');
  const bound = (bodies.get('PUT /v2.0/ports/np-1') as { port: Record<string, unknown> }).port;
  assert.equal(bound['binding:host_id'], HOST);
  assert.deepEqual(bound['binding:profile'], { local_link_information: [SMARTNIC_LLC] });
});

test('without a Smart NIC port the power is left alone and ports are bound to the node', async () => {
  const node = await nodeWithPort('plain-clean', 'power off', { is_smartnic: false, llc: SWITCH_LLC });
  await onTask(node.uuid, (task) => prepareInbandCleaning(task, false));
  assert.deepEqual(events, ['GET /v2.0/networks/cleaning-net', 'GET /v2.0/ports', 'POST /v2.0/ports', 'GET /v2.0/ports/np-1',
    'PUT /v2.0/ports/np-1', 'rebooting']);
  assert.equal((bodies.get('POST /v2.0/ports') as { port: Record<string, unknown> }).port['binding:vnic_type'], 'baremetal');
  assert.equal((bodies.get('PUT /v2.0/ports/np-1') as { port: Record<string, unknown> }).port['binding:host_id'], node.uuid);
});

test('a powered-on node: no power change, the tenant VIF is bound to the NIC host once its agent is up', async () => {
  const node = await nodeWithPort('snic-tenant', 'power on', { is_smartnic: true, llc: SMARTNIC_LLC, vif: 'tenant-vif' });
  await tmp.db.knex('nodes').where({ uuid: node.uuid }).update({ provision_state: 'deploying' });
  agentAnswers = [false];
  await onTask(node.uuid, (task) => switchToTenantNetwork(task));
  assert.deepEqual(events, ['GET /v2.0/networks/prov-net', 'GET /v2.0/ports',
    `GET /v2.0/agents?host=${HOST}`, `GET /v2.0/agents?host=${HOST}`,
    'GET /v2.0/ports/tenant-vif', 'PUT /v2.0/ports/tenant-vif', 'GET /v2.0/ports/tenant-vif']);
  const bound = (bodies.get('PUT /v2.0/ports/tenant-vif') as { port: Record<string, unknown> }).port;
  assert.equal(bound['binding:host_id'], HOST);
  assert.equal(bound['binding:vnic_type'], 'smart-nic');
});

test('an agent that never comes up fails the change with 29.0.5\'s error, and the node is left on', async () => {
  const node = await nodeWithPort('snic-dead', 'power off', { is_smartnic: true, llc: SMARTNIC_LLC });
  agentAnswers = [false];
  agentDefault = false;
  await assert.rejects(onTask(node.uuid, (task) => prepareInbandCleaning(task, false)),
    (err: unknown) => err instanceof NetworkError && err.message === `Agent on host ${HOST} failed to reach state up`);
  assert.equal(events.filter((e) => e.startsWith('GET /v2.0/agents')).length, 1 + 3, 'one check for down, three attempts for up');
  assert.ok(!events.includes('POST /v2.0/ports'), 'no port is created for a dead agent');
  assert.equal((await nodeRepo.find(tmp.db, node.uuid)).power_state, 'power on');
});
