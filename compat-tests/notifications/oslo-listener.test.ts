/**
 * Ironic's versioned notifications, received by an oslo.messaging notification listener (Debian's
 * python3-oslo.messaging, compat-tests/notifications/listener.py) on RabbitMQ while ironic-ts
 * enrols and deploys a fake-hardware node. The event types must come in Ironic's order, and each
 * payload must be one of Ironic 29.0.5's payload classes with its version and exactly its fields
 * (ironic-29.0.5-payloads.json, dumped from 29.0.5's objects). A unique exchange and topic per run
 * keep parallel runs apart.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { freePort, startTarget, stopProcess, type Target } from '../support/target';
import { api, provision, waitProvision } from '../support/ironic-http';

interface Received {
  priority: string;
  publisher_id: string;
  event_type: string;
  payload: Record<string, any>;
  context: Record<string, any>;
}

const SCHEMA = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'compat-tests', 'notifications',
  'ironic-29.0.5-payloads.json'), 'utf8')) as Record<string, { version: string; fields: Record<string, unknown> }>;
const BROKER = 'rabbit://guest:guest@127.0.0.1:5672/';
const run = randomUUID().slice(0, 8);
const exchange = `ironic-ts-notify-${run}`;
const topic = `versioned-${run}`;

let target: Target;
let listener: ChildProcess;
const received: Received[] = [];

async function startListener(): Promise<ChildProcess> {
  const script = path.join(__dirname, '..', '..', '..', 'compat-tests', 'notifications', 'listener.py');
  const child = spawn('/usr/bin/python3', [script, BROKER, exchange, topic], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  const lines = readline.createInterface({ input: child.stdout! });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`listener did not start: ${stderr}`)), 30000);
    child.once('exit', () => reject(new Error(`listener exited: ${stderr}`)));
    lines.on('line', (line) => {
      if (line === 'READY') {
        clearTimeout(timer);
        resolve();
      } else {
        received.push(JSON.parse(line) as Received);
      }
    });
  });
  return child;
}

before(async () => {
  listener = await startListener();
  target = await startTarget({
    extraConf: [
      'notification_level = info', `control_exchange = ${exchange}`, `versioned_notifications_topics = ${topic}`,
      '[oslo_messaging_notifications]', 'driver = messagingv2', `transport_url = ${BROKER}`,
    ].join('\n'),
  });
});

after(async () => {
  await target?.stop();
  if (listener) await stopProcess(listener);
});

async function eventsFor(uuid: string, expected: number, timeoutMs = 20000): Promise<Received[]> {
  const deadline = Date.now() + timeoutMs;
  const mine = (): Received[] => received.filter((r) => r.payload['ironic_object.data']?.uuid === uuid);
  while (mine().length < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return mine();
}

function checkPayload(r: Received): void {
  const name = r.payload['ironic_object.name'] as string;
  const cls = SCHEMA[name];
  assert.ok(cls, `${r.event_type}: ${name} is not one of 29.0.5's payload classes`);
  assert.equal(r.payload['ironic_object.namespace'], 'ironic');
  assert.equal(r.payload['ironic_object.version'], cls.version, `${r.event_type}: ${name} version`);
  assert.deepEqual(Object.keys(r.payload['ironic_object.data']).sort(), Object.keys(cls.fields).sort(), `${r.event_type}: ${name} fields`);
}

test('an oslo.messaging listener receives the notifications of an enrolment and a deploy, as 29.0.5 sends them', async () => {
  const created = await api(target.url, 'POST', '/v1/nodes', {
    driver: 'fake-hardware', name: `notify-${run}`, driver_info: { ipmi_password: 'notify-secret' },
  });
  assert.equal(created.status, 201, JSON.stringify(created.json));
  const uuid = created.json.uuid as string;
  const port = await api(target.url, 'POST', '/v1/ports', { node_uuid: uuid, address: '52:54:00:aa:bb:01' });
  assert.equal(port.status, 201);
  assert.equal((await api(target.url, 'PATCH', `/v1/nodes/${uuid}`, [{ op: 'add', path: '/extra/rack', value: 'r1' }])).status, 200);
  await provision(target.url, uuid, 'manage', 'manageable');
  await provision(target.url, uuid, 'provide', 'available');
  const deploy = await api(target.url, 'PUT', `/v1/nodes/${uuid}/states/provision`, { target: 'active' });
  assert.equal(deploy.status, 202);
  await waitProvision(target.url, uuid, 'active');
  assert.equal((await api(target.url, 'PUT', `/v1/nodes/${uuid}/maintenance`, { reason: 'checking' })).status, 202);
  assert.equal((await api(target.url, 'DELETE', `/v1/nodes/${uuid}/maintenance`)).status, 202);

  const nodeEvents = [
    'baremetal.node.create.start', 'baremetal.node.create.end',
    'baremetal.node.update.start', 'baremetal.node.update.end',
    'baremetal.node.provision_set.start', 'baremetal.node.provision_set.end', // manage: verifying, then manageable
    'baremetal.node.provision_set.start', 'baremetal.node.provision_set.end', // provide: cleaning, then available
    'baremetal.node.provision_set.start', 'baremetal.node.provision_set.end', // deploy: deploying, then active
    'baremetal.node.maintenance_set.start', 'baremetal.node.maintenance_set.end',
    'baremetal.node.maintenance_set.start', 'baremetal.node.maintenance_set.end',
  ];
  const events = await eventsFor(uuid, nodeEvents.length);
  // A fake deploy may power the node on and off on its way: those are power_set events, in their place.
  const withoutPower = events.filter((r) => !r.event_type.startsWith('baremetal.node.power_set.'));
  assert.deepEqual(withoutPower.map((r) => r.event_type), nodeEvents);
  for (const r of events) checkPayload(r);

  const byType = (type: string): Received[] => events.filter((r) => r.event_type === type);
  assert.equal(byType('baremetal.node.create.start')[0].publisher_id, 'ironic-api.reference');
  // The listener's dispatcher calls the endpoint method named after the message's priority.
  assert.equal(byType('baremetal.node.create.start')[0].priority, 'info');
  assert.equal(byType('baremetal.node.create.end')[0].payload['ironic_object.name'], 'NodeCRUDPayload');
  // Secrets are masked as Ironic's mask_secrets does.
  assert.equal(byType('baremetal.node.create.end')[0].payload['ironic_object.data'].driver_info.ipmi_password, '******');
  const provisions = byType('baremetal.node.provision_set.start').concat(byType('baremetal.node.provision_set.end'));
  for (const r of provisions) {
    assert.equal(r.publisher_id, 'ironic-conductor.reference');
    assert.equal(r.payload['ironic_object.name'], 'NodeSetProvisionStatePayload');
  }
  const deployStart = byType('baremetal.node.provision_set.start')[2].payload['ironic_object.data'];
  assert.deepEqual([deployStart.previous_provision_state, deployStart.provision_state, deployStart.event], ['available', 'deploying', 'deploy']);
  // The conductor's notification carries the API request's id in its context, as oslo's _context_ keys.
  assert.equal(byType('baremetal.node.provision_set.start')[2].context.request_id, deploy.requestId);
  const deployEnd = byType('baremetal.node.provision_set.end')[2].payload['ironic_object.data'];
  assert.equal(deployEnd.provision_state, 'active');
  assert.equal(byType('baremetal.node.maintenance_set.start')[0].payload['ironic_object.data'].maintenance, true);
  assert.equal(byType('baremetal.node.maintenance_set.start')[0].payload['ironic_object.name'], 'NodePayload');

  // Power: an explicit power off gives power_set start and end from the conductor.
  assert.equal((await api(target.url, 'PUT', `/v1/nodes/${uuid}/states/power`, { target: 'power off' })).status, 202);
  const power = (await eventsFor(uuid, events.length + 2)).filter((r) => r.event_type.startsWith('baremetal.node.power_set.')).slice(-2);
  assert.deepEqual(power.map((r) => r.event_type), ['baremetal.node.power_set.start', 'baremetal.node.power_set.end']);
  assert.equal(power[1].payload['ironic_object.data'].to_power, 'power off');
  assert.equal(power[1].payload['ironic_object.data'].power_state, 'power off');
  for (const r of power) checkPayload(r);

  // The port's CRUD, with its node's uuid.
  const portEvents = received.filter((r) => r.event_type.startsWith('baremetal.port.'));
  assert.deepEqual(portEvents.map((r) => r.event_type), ['baremetal.port.create.start', 'baremetal.port.create.end']);
  assert.equal(portEvents[1].payload['ironic_object.data'].node_uuid, uuid);
  for (const r of portEvents) checkPayload(r);
});

test('chassis, deploy template and allocation CRUD notifications carry 29.0.5 payloads', async () => {
  const chassis = await api(target.url, 'POST', '/v1/chassis', { description: 'rack' });
  assert.equal(chassis.status, 201);
  assert.equal((await api(target.url, 'DELETE', `/v1/chassis/${chassis.json.uuid}`)).status, 204);
  const template = await api(target.url, 'POST', '/v1/deploy_templates', {
    name: `CUSTOM_NOTIFY_${run.toUpperCase()}`, steps: [{ interface: 'bios', step: 'apply_configuration', args: {}, priority: 10 }],
  });
  assert.equal(template.status, 201, JSON.stringify(template.json));
  const allocation = await api(target.url, 'POST', '/v1/allocations', { resource_class: 'none-here' });
  assert.equal(allocation.status, 201, JSON.stringify(allocation.json));
  const want = [
    [chassis.json.uuid, ['baremetal.chassis.create.start', 'baremetal.chassis.create.end', 'baremetal.chassis.delete.start', 'baremetal.chassis.delete.end']],
    [template.json.uuid, ['baremetal.deploytemplate.create.start', 'baremetal.deploytemplate.create.end']],
    [allocation.json.uuid, ['baremetal.allocation.create.start', 'baremetal.allocation.create.end']],
  ] as const;
  for (const [uuid, types] of want) {
    const events = await eventsFor(uuid, types.length);
    assert.deepEqual(events.map((r) => r.event_type), types);
    for (const r of events) checkPayload(r);
  }
  const templateEnd = (await eventsFor(template.json.uuid, 2))[1].payload['ironic_object.data'];
  assert.deepEqual(templateEnd.steps, [{ interface: 'bios', step: 'apply_configuration', args: {}, priority: 10 }]);
});

test('with the broker away requests are served at once; the log driver still writes the notifications', async () => {
  const closed = await freePort();
  const offline = await startTarget({
    extraConf: [
      'notification_level = info', '[oslo_messaging_notifications]', 'driver = messagingv2', 'driver = log',
      `transport_url = rabbit://guest:broker-secret@127.0.0.1:${closed}/`,
    ].join('\n'),
  });
  try {
    const started = Date.now();
    const created = await api(offline.url, 'POST', '/v1/nodes', { driver: 'fake-hardware' });
    assert.equal(created.status, 201);
    assert.ok(Date.now() - started < 1000, `create took ${Date.now() - started} ms`);
    const logFile = path.join(offline.dir, 'stdout.log');
    const deadline = Date.now() + 15000;
    while (!fs.readFileSync(logFile, 'utf8').includes('Dropped') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    const log = fs.readFileSync(logFile, 'utf8');
    assert.match(log, /"event_type": ?"baremetal\.node\.create\.end"/);
    assert.match(log, /Dropped \d+ notification/);
    assert.ok(!log.includes('broker-secret'), 'the transport_url password reached the log');
  } finally {
    await offline.stop();
  }
});

test('node traits, volume connector and target, runbook and inspection rule changes are notified with 29.0.5 payloads', async () => {
  const node = await api(target.url, 'POST', '/v1/nodes', { driver: 'fake-hardware', name: `notify-more-${run}` });
  const uuid = node.json.uuid as string;
  assert.equal((await api(target.url, 'PUT', `/v1/nodes/${uuid}/traits/CUSTOM_GPU`)).status, 204);
  const traitEvents = (await eventsFor(uuid, 4)).slice(2);
  assert.deepEqual(traitEvents.map((r) => r.event_type), ['baremetal.node.update.start', 'baremetal.node.update.end']);
  assert.deepEqual(traitEvents[1].payload['ironic_object.data'].traits, ['CUSTOM_GPU']);
  const connector = await api(target.url, 'POST', '/v1/volume/connectors', { node_uuid: uuid, type: 'iqn', connector_id: `iqn.2026-12.org:${run}` });
  assert.equal(connector.status, 201, JSON.stringify(connector.json));
  const volumeTarget = await api(target.url, 'POST', '/v1/volume/targets', { node_uuid: uuid, volume_type: 'iscsi', boot_index: 0, volume_id: `vol-${run}` });
  assert.equal(volumeTarget.status, 201, JSON.stringify(volumeTarget.json));
  const runbook = await api(target.url, 'POST', '/v1/runbooks', {
    name: `CUSTOM_RB_${run.toUpperCase()}`, steps: [{ interface: 'bios', step: 'apply_configuration', args: {}, order: 1 }],
  });
  assert.equal(runbook.status, 201, JSON.stringify(runbook.json));
  const rule = await api(target.url, 'POST', '/v1/inspection_rules', {
    sensitive: true, actions: [{ op: 'set-attribute', args: { path: '/driver_info/ipmi_password', value: 'rule-secret' } }],
  });
  assert.equal(rule.status, 201, JSON.stringify(rule.json));
  for (const [id, object] of [[connector.json.uuid, 'volumeconnector'], [volumeTarget.json.uuid, 'volumetarget'], [runbook.json.uuid, 'runbook'], [rule.json.uuid, 'inspectionrule']]) {
    const events = await eventsFor(id, 2);
    assert.deepEqual(events.map((r) => r.event_type), [`baremetal.${object}.create.start`, `baremetal.${object}.create.end`]);
    for (const r of events) checkPayload(r);
  }
  assert.equal((await eventsFor(connector.json.uuid, 2))[1].payload['ironic_object.data'].node_uuid, uuid);
  // A sensitive rule's actions stay out of the bus (the API hides them too).
  assert.ok(!JSON.stringify(await eventsFor(rule.json.uuid, 2)).includes('rule-secret'));
});
