/**
 * Metrics end to end: ironic-ts with [prometheus] on and [metrics]backend = statsd deploys a
 * fake-hardware node and power-syncs a node on the Redfish emulator. The Prometheus endpoint is
 * scraped before, during and after, each scrape parsed by the Prometheus Python client's parser,
 * and the figures must move; a UDP socket playing statsd must receive Ironic's metric names.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as dgram from 'node:dgram';
import * as path from 'node:path';
import { startRedfishEmulator, type RedfishEmulator } from '../../src/emulators/redfish';
import { freePort, startTarget, type Target } from '../support/target';
import { api, provision, waitProvision } from '../support/ironic-http';

interface Sample {
  family: string;
  type: string;
  name: string;
  labels: Record<string, string>;
  value: number;
}

let target: Target;
let bmc: RedfishEmulator;
let statsd: dgram.Socket;
let metricsPort: number;
const datagrams: string[] = [];

before(async () => {
  statsd = dgram.createSocket('udp4');
  statsd.on('message', (msg) => datagrams.push(msg.toString()));
  await new Promise<void>((resolve) => statsd.bind(0, '127.0.0.1', resolve));
  bmc = await startRedfishEmulator({ systems: ['1'], auth: { username: 'admin', password: 'bmc-secret' } });
  metricsPort = await freePort();
  target = await startTarget({
    extraConf: [
      'enabled_hardware_types = fake-hardware,redfish', 'enabled_boot_interfaces = fake,redfish-virtual-media',
      'enabled_deploy_interfaces = fake,ramdisk', 'default_deploy_interface =',
      'enabled_management_interfaces = fake,redfish', 'enabled_power_interfaces = fake,redfish',
      '[prometheus]', 'enabled = true', `port = ${metricsPort}`,
      '[metrics]', 'backend = statsd', 'global_prefix = obs', 'prepend_host = true',
      '[metrics_statsd]', 'statsd_host = 127.0.0.1', `statsd_port = ${(statsd.address()).port}`,
      '[redfish]', 'connection_attempts = 1',
      '[conductor]', 'sync_power_state_interval = 1',
    ].join('\n'),
  });
});

after(async () => {
  await target?.stop();
  await bmc?.stop();
  statsd?.close();
});

async function scrape(): Promise<Sample[]> {
  const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  const script = path.join(__dirname, '..', '..', '..', 'compat-tests', 'metrics', 'parse_prometheus.py');
  return new Promise((resolve, reject) => {
    const child = execFile('/usr/bin/python3', [script], (err, stdout, stderr) =>
      (err ? reject(new Error(`the Prometheus parser refused the exposition: ${stderr}`)) : resolve(JSON.parse(stdout) as Sample[])));
    child.stdin!.end(text);
  });
}

function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const matching = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return matching.reduce((sum, s) => sum + s.value, 0);
}

test('the Prometheus figures move during a deploy and a power sync against a Redfish BMC', async () => {
  const before = await scrape();
  assert.equal(value(before, 'ironic_conductor_workers', { kind: 'size' }), 100);

  const redfish = await api(target.url, 'POST', '/v1/nodes', {
    // fake-hardware with the Redfish power and management (Ironic 2025.1's redfish type takes no fake deploy).
    driver: 'fake-hardware', power_interface: 'redfish', management_interface: 'redfish', deploy_interface: 'fake',
    driver_info: { redfish_address: bmc.url, redfish_username: 'admin', redfish_password: 'bmc-secret', redfish_system_id: '/redfish/v1/Systems/1' },
  });
  assert.equal(redfish.status, 201, JSON.stringify(redfish.json));
  const node = await api(target.url, 'POST', '/v1/nodes', { driver: 'fake-hardware' });
  const uuid = node.json.uuid as string;
  await provision(target.url, redfish.json.uuid, 'manage', 'manageable');
  await provision(target.url, uuid, 'manage', 'manageable');
  await provision(target.url, uuid, 'provide', 'available');
  const started = await api(target.url, 'PUT', `/v1/nodes/${uuid}/states/provision`, { target: 'active' });
  assert.equal(started.status, 202);
  const during = await scrape();
  await waitProvision(target.url, uuid, 'active');
  // A sync pass over the Redfish node (every second) after the deploy.
  await new Promise((r) => setTimeout(r, 2500));
  const afterDeploy = await scrape();

  const latency = 'ironic_api_request_duration_seconds_count';
  const provisionRoute = { method: 'PUT', route: '/v1/nodes/:node_ident/states/provision', status: '202' };
  assert.equal(value(before, latency, provisionRoute), 0);
  // The deploy request itself was answered (202) before the scrape during the deploy.
  assert.equal(value(during, latency, provisionRoute), 4, 'manage, manage, provide and deploy counted');
  assert.equal(value(afterDeploy, latency, provisionRoute), 4);
  assert.ok(value(afterDeploy, 'ironic_conductor_task_duration_seconds_count') > value(during, 'ironic_conductor_task_duration_seconds_count') ||
    value(during, 'ironic_nodes_by_provision_state', { provision_state: 'active' }) === 1, 'the deploy finished after the scrape during it, or it was that quick');
  assert.ok(value(afterDeploy, latency, { method: 'POST', route: '/v1/nodes', status: '201' }) === 2);
  assert.ok(value(afterDeploy, 'ironic_conductor_task_duration_seconds_count', { action: 'node deployment' }) >= 1);
  assert.equal(value(afterDeploy, 'ironic_nodes_by_provision_state', { provision_state: 'active' }), 1);
  assert.equal(value(afterDeploy, 'ironic_nodes_by_provision_state', { provision_state: 'manageable' }), 1);
  assert.equal(value(afterDeploy, 'ironic_nodes_in_maintenance'), 0);
  assert.ok(value(afterDeploy, 'ironic_conductor_power_sync_duration_seconds_count') > value(before, 'ironic_conductor_power_sync_duration_seconds_count'));
  assert.ok(value(afterDeploy, 'ironic_bmc_request_duration_seconds_count', { protocol: 'redfish', outcome: 'ok' }) > 0);
  // Every node counted once by power state (the fake node may still have none); the Redfish one is off.
  assert.equal(value(afterDeploy, 'ironic_nodes_by_power_state'), 2);
  assert.equal(value(afterDeploy, 'ironic_nodes_by_power_state', { power_state: 'power off' }), 1);

  // A BMC that stops answering: power sync errors are counted.
  await bmc.stop();
  const errorsBefore = value(afterDeploy, 'ironic_conductor_power_sync_errors_total');
  const deadline = Date.now() + 15000;
  let last = afterDeploy;
  while (value(last, 'ironic_conductor_power_sync_errors_total') <= errorsBefore && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 500));
    last = await scrape();
  }
  assert.ok(value(last, 'ironic_conductor_power_sync_errors_total') > errorsBefore, 'power sync errors counted');
  assert.ok(value(last, 'ironic_bmc_request_duration_seconds_count', { protocol: 'redfish', outcome: 'error' }) > 0);
});

test('statsd receives Ironic 29.0.5\'s metric names with the global prefix and the host', async () => {
  const deadline = Date.now() + 5000;
  const names = (): Set<string> => new Set(datagrams.map((d) => d.split(':')[0]));
  const expected = [
    'obs.reference.ironic.api.controllers.v1.node.NodesController.post',
    'obs.reference.ironic.api.controllers.v1.node.NodeStatesController.provision',
    'obs.reference.ironic.api.controllers.v1.node.NodesController.get_one',
    'obs.reference.ironic.conductor.manager.ConductorManager.create_node',
    'obs.reference.ironic.conductor.manager.ConductorManager.do_node_deploy',
    'obs.reference.ironic.conductor.manager.ConductorManager.do_provisioning_action',
    'obs.reference.ironic.conductor.manager.ConductorManager._sync_power_states',
    'obs.reference.ironic.conductor.manager.do_sync_power_state',
  ];
  while (expected.some((n) => !names().has(n)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  for (const name of expected) assert.ok(names().has(name), `${name} not received; got ${[...names()].join(', ')}`);
  for (const d of datagrams) assert.match(d, /^[\w.]+:\d+(\.\d+)?(e-?\d+)?\|(ms|c|g)$/, d);
});

test('the endpoint answers only GET /metrics', async () => {
  assert.equal((await fetch(`http://127.0.0.1:${metricsPort}/`)).status, 404);
  assert.equal((await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { method: 'POST' })).status, 404);
});
