/**
 * Ironic 2025.1's features (API 1.83-1.95) through Debian 13's clients, unmodified: the `baremetal`
 * CLI (python-ironicclient 5.10), `openstack baremetal` and openstacksdk 4.4, each command checked
 * on its output. Child nodes, disable_power_off, port names, runbooks, cleaning and servicing with
 * steps or a runbook, unhold, the firmware interface and its component list.
 *
 * Not here because these clients have no command for them: virtual media attach/detach/get and
 * inspection rules (neither ironicclient 5.10 nor openstacksdk 4.4 offers them).
 *
 * Every expectation was checked against Ironic 29.0.5 (IRONIC_TS_COMPAT_TARGET=reference with
 * IRONIC_REFERENCE_RELEASE=2025.1), including the refusals, which answer the same on both.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverFor } from './suites/client-server';
import { DEBIAN13_CLIENTS as clients, parseJson, type RunResult } from '../support/python';

type Row = Record<string, unknown>;
// 29.0.5's defaults (only no-firmware enabled) on both servers: the reference takes no extra conf.
const server = serverFor(clients);

const bm = (args: string[]): Promise<RunResult> => clients.baremetal(server().url, args);
const bmJson = async <T = Row>(args: string[]): Promise<T> => parseJson<T>(await bm([...args, '-f', 'json']));
const osJson = async <T = Row>(args: string[]): Promise<T> => parseJson<T>(await clients.openstack(server().url, ['baremetal', ...args, '-f', 'json']));

async function ok(res: Promise<RunResult>): Promise<RunResult> {
  const done = await res;
  assert.equal(done.code, 0, done.stderr);
  return done;
}

async function refused(args: string[], message: RegExp): Promise<void> {
  // No retries: ironicclient retries a 409 five times, two seconds apart.
  const res = await bm(['--max-retries', '0', ...args]);
  assert.notEqual(res.code, 0, res.stdout);
  assert.match(res.stderr, message);
}

const showField = async (node: string, field: string): Promise<unknown> => (await bmJson(['node', 'show', node, '--fields', field]))[field];

const VENDOR_STEP = { interface: 'vendor', step: 'log_passthrough', args: {}, order: 1 };

test('baremetal: child nodes, their lists and disable_power_off', async () => {
  const parent = await bmJson(['node', 'create', '--driver', 'fake-hardware', '--name', 'parent-1']);
  assert.equal(parent.parent_node, null);
  assert.equal(parent.disable_power_off, false);
  const child = await bmJson(['node', 'create', '--driver', 'fake-hardware', '--name', 'child-1', '--parent-node', 'parent-1', '--disable-power-off']);
  assert.equal(child.parent_node, parent.uuid, 'the parent given by name is stored as its UUID');
  assert.equal(child.disable_power_off, true);

  assert.deepEqual(await bmJson(['node', 'children', 'list', 'parent-1']), { 'Child Nodes': [child.uuid] });
  const names = (rows: Row[]): unknown[] => rows.map((n) => n.Name).sort();
  assert.deepEqual(names(await bmJson<Row[]>(['node', 'list'])), ['parent-1'], 'children are hidden by default');
  assert.deepEqual(names(await bmJson<Row[]>(['node', 'list', '--include-children'])), ['child-1', 'parent-1']);
  assert.deepEqual(names(await bmJson<Row[]>(['node', 'list', '--parent-node', String(parent.uuid)])), ['child-1']);
  // The list filter compares UUIDs: 29.0.5 does not resolve a name there either.
  assert.deepEqual(await bmJson<Row[]>(['node', 'list', '--parent-node', 'parent-1']), []);

  await refused(['node', 'power', 'off', 'child-1'], /Failed to set node power state to power off\. \(HTTP 409\)/);
  await ok(bm(['node', 'set', 'child-1', '--enable-power-off']));
  assert.equal(await showField('child-1', 'disable_power_off'), false);

  await ok(bm(['node', 'unset', 'child-1', '--parent-node']));
  assert.equal(await showField('child-1', 'parent_node'), null);
  // ironicclient prints an empty object when there are no children.
  assert.deepEqual(await bmJson(['node', 'children', 'list', 'parent-1']), {});
  await ok(bm(['node', 'set', 'child-1', '--parent-node', 'parent-1']));
  assert.equal(await showField('child-1', 'parent_node'), parent.uuid);
});

test('baremetal: ports by name', async () => {
  const parent = String(await showField('parent-1', 'uuid'));
  // ironicclient sends --node as node_uuid, so it must be a UUID (29.0.5 answers the same).
  await refused(['port', 'create', '--node', 'parent-1', '--name', 'port-a', '52:54:00:00:00:01'], /Expected UUID for node_uuid: parent-1 \(HTTP 400\)/);
  const port = await bmJson(['port', 'create', '--node', parent, '--name', 'port-a', '52:54:00:00:00:01']);
  assert.equal(port.name, 'port-a');
  assert.equal(port.node_uuid, parent);
  assert.equal((await bmJson(['port', 'show', 'port-a'])).uuid, port.uuid);
  await ok(bm(['port', 'set', 'port-a', '--name', 'port-b']));
  assert.deepEqual(await bmJson<Row[]>(['port', 'list', '--fields', 'name', 'address']), [{ Name: 'port-b', Address: '52:54:00:00:00:01' }]);
  await ok(bm(['port', 'unset', 'port-b', '--name']));
  assert.deepEqual(await bmJson<Row[]>(['port', 'list', '--fields', 'name', 'address']), [{ Name: null, Address: '52:54:00:00:00:01' }]);
});

test('baremetal: runbook create, list, show, set, unset and delete', async () => {
  const created = await bmJson(['runbook', 'create', '--name', 'CUSTOM_RB1', '--steps', JSON.stringify([VENDOR_STEP]), '--extra', 'a=b']);
  assert.equal(created.name, 'CUSTOM_RB1');
  assert.equal(created.public, false);
  assert.equal(created.owner, null);
  assert.deepEqual(created.steps, [VENDOR_STEP]);
  assert.deepEqual(created.extra, { a: 'b' });
  assert.match(String(created.uuid), /^[0-9a-f-]{36}$/);

  assert.deepEqual(await bmJson<Row[]>(['runbook', 'list']), [{ UUID: created.uuid, Name: 'CUSTOM_RB1' }]);
  // 5.10's create sends --public as the string it was given, which 29.0.5's schema refuses (set converts it).
  await refused(['runbook', 'create', '--name', 'CUSTOM_PUB', '--steps', '[]', '--public', 'true'], /Schema error for runbook: 'true' is not of type 'boolean', 'null' \(HTTP 400\)/);

  const badSteps = [{ ...VENDOR_STEP, args: { x: 1 }, order: 5 }];
  await ok(bm(['runbook', 'set', 'CUSTOM_RB1', '--public', 'true', '--extra', 'c=d', '--steps', JSON.stringify(badSteps)]));
  let shown = await bmJson(['runbook', 'show', 'CUSTOM_RB1']);
  assert.equal(shown.public, true);
  assert.deepEqual(shown.extra, { a: 'b', c: 'd' });
  assert.deepEqual(shown.steps, badSteps);
  await ok(bm(['runbook', 'unset', 'CUSTOM_RB1', '--extra', 'a']));
  shown = await bmJson(['runbook', 'show', String(created.uuid)]);
  assert.deepEqual(shown.extra, { c: 'd' });

  const scratch = await bmJson(['runbook', 'create', '--name', 'CUSTOM_SCRATCH', '--steps', JSON.stringify([VENDOR_STEP])]);
  await ok(bm(['runbook', 'delete', 'CUSTOM_SCRATCH']));
  await refused(['runbook', 'show', String(scratch.uuid)], /could not be found\. \(HTTP 404\)/);
});

test('baremetal: clean with a runbook, unhold refused, service with steps', async () => {
  await ok(bm(['node', 'add', 'trait', 'parent-1', 'CUSTOM_RB1']));
  await ok(bm(['node', 'manage', 'parent-1', '--wait', '60']));

  // The runbook's steps reach the conductor: its unexpected argument fails the cleaning.
  await refused(['node', 'clean', 'parent-1', '--runbook', 'CUSTOM_RB1', '--wait', '60'], /state clean failed/);
  let node = await bmJson(['node', 'show', 'parent-1', '--fields', 'provision_state', 'last_error']);
  assert.equal(node.provision_state, 'clean failed');
  assert.match(String(node.last_error), /^Cannot clean node [0-9a-f-]{36}: clean step .*'log_passthrough'.* has these unexpected arguments: x$/);

  await ok(bm(['runbook', 'set', 'CUSTOM_RB1', '--steps', JSON.stringify([VENDOR_STEP])]));
  await ok(bm(['node', 'manage', 'parent-1', '--wait', '60']));
  await ok(bm(['node', 'clean', 'parent-1', '--runbook', 'CUSTOM_RB1', '--wait', '60']));
  node = await bmJson(['node', 'show', 'parent-1', '--fields', 'provision_state', 'last_error', 'clean_step']);
  assert.deepEqual(node, { provision_state: 'manageable', last_error: null, clean_step: {} });

  await refused(['node', 'unhold', 'parent-1'], /The requested action "unhold" can not be performed on node "[0-9a-f-]{36}" while it is in state "manageable"\. \(HTTP 400\)/);

  await ok(bm(['node', 'provide', 'parent-1', '--wait', '60']));
  await ok(bm(['node', 'deploy', 'parent-1', '--wait', '60']));
  await ok(bm(['node', 'service', 'parent-1', '--service-steps', JSON.stringify([{ interface: 'vendor', step: 'log_passthrough' }]), '--wait', '60']));
  // 5.10 has no service_step among --fields' choices; -c picks it from the full node.
  node = await bmJson(['node', 'show', 'parent-1', '-c', 'provision_state', '-c', 'last_error', '-c', 'service_step']);
  assert.deepEqual(node, { provision_state: 'active', last_error: null, service_step: {} });
  // ironicclient 5.10 sends disable_ramdisk=false with --runbook, which 29.0.5 refuses outside cleaning.
  await refused(['node', 'service', 'parent-1', '--runbook', 'CUSTOM_RB1'], /disable_ramdisk is supported only with manual cleaning \(HTTP 400\)/);
  assert.equal(await showField('parent-1', 'provision_state'), 'active');
});

test('baremetal: firmware interface and firmware components', async () => {
  assert.equal(await showField('parent-1', 'firmware_interface'), 'no-firmware');
  assert.deepEqual(await bmJson<Row[]>(['node', 'firmware', 'list', 'parent-1']), []);
  await refused(['node', 'set', 'child-1', '--firmware-interface', 'fake'],
    /Could not find the following interface in the 'ironic\.hardware\.interfaces\.firmware' entrypoint: fake\. Valid interfaces are \['no-firmware'\]\. \(HTTP 400\)/);
  assert.equal(await showField('child-1', 'firmware_interface'), 'no-firmware');
});

test('openstack baremetal: child nodes, runbooks, port names, firmware', async () => {
  const parent = await osJson(['node', 'create', '--driver', 'fake-hardware', '--name', 'os-parent']);
  const child = await osJson(['node', 'create', '--driver', 'fake-hardware', '--name', 'os-child', '--parent-node', String(parent.uuid), '--disable-power-off']);
  assert.equal(child.parent_node, parent.uuid);
  assert.equal(child.disable_power_off, true);
  assert.deepEqual(await osJson(['node', 'children', 'list', 'os-parent']), { 'Child Nodes': [child.uuid] });

  const runbook = await osJson(['runbook', 'create', '--name', 'CUSTOM_OS', '--steps', JSON.stringify([VENDOR_STEP])]);
  assert.deepEqual([runbook.name, runbook.public], ['CUSTOM_OS', false]);
  await ok(clients.openstack(server().url, ['baremetal', 'runbook', 'set', 'CUSTOM_OS', '--public', 'true']));
  assert.equal((await osJson(['runbook', 'show', 'CUSTOM_OS'])).public, true);
  assert.deepEqual((await osJson(['runbook', 'show', 'CUSTOM_OS'])).steps, [VENDOR_STEP]);
  await ok(clients.openstack(server().url, ['baremetal', 'runbook', 'delete', 'CUSTOM_OS']));
  assert.deepEqual((await osJson<Row[]>(['runbook', 'list'])).map((r) => r.Name), ['CUSTOM_RB1']);

  const port = await osJson(['port', 'create', '--node', String(parent.uuid), '--name', 'os-port', '52:54:00:00:00:09']);
  assert.deepEqual([port.name, port.address], ['os-port', '52:54:00:00:00:09']);
  assert.deepEqual(await osJson<Row[]>(['node', 'firmware', 'list', 'os-parent']), []);
});

test('openstacksdk 4.4: child nodes, runbooks, firmware, clean with a runbook, service, unhold', async () => {
  const script = `
import json, os, openstack
from openstack.baremetal.v1 import runbooks
conn = openstack.connection.Connection(auth_type='none', baremetal_endpoint_override=os.environ['IRONIC_URL'])
bm = conn.baremetal
out = {}
p = bm.create_node(driver='fake-hardware', name='sdk-parent')
c = bm.create_node(driver='fake-hardware', name='sdk-child', parent_node=p.id)
out['child_parent'] = [c.parent_node == p.id, bm.get_node('sdk-child').parent_node == p.id]
sdk_names = lambda nodes: sorted(x.name for x in nodes if x.name.startswith('sdk-'))
out['top'] = sdk_names(bm.nodes())
out['with_children'] = sdk_names(bm.nodes(include_children=True))
out['by_parent'] = [x.name for x in bm.nodes(parent_node=p.id)]
out['firmware'] = bm.list_node_firmware(p)
# 4.4's proxy has no runbook calls: the Runbook resource talks to the proxy's session itself.
rb = runbooks.Runbook.new(name='CUSTOM_SDK', steps=[{'interface': 'vendor', 'step': 'log_passthrough', 'args': {}, 'order': 1}]).create(bm)
out['runbook'] = {'name': rb.name, 'public': rb.public, 'steps': rb.steps, 'id': len(rb.id)}
out['runbooks'] = sorted(r.name for r in runbooks.Runbook.list(bm))
bm.add_node_trait(p, 'CUSTOM_SDK')
bm.set_node_provision_state(p, 'manage', wait=True, timeout=60)
# The proxy's set_node_provision_state takes neither runbook nor service_steps; the Node resource does.
n = bm.get_node(p.id).set_provision_state(bm, 'clean', runbook='CUSTOM_SDK', wait=True, timeout=60)
out['after_clean'] = [n.provision_state, n.last_error]
bm.set_node_provision_state(p, 'provide', wait=True, timeout=60)
bm.set_node_provision_state(p, 'active', wait=True, timeout=60)
# 4.4 cannot wait on target service (no expected state known), so wait for active afterwards.
n = bm.get_node(p.id).set_provision_state(bm, 'service', service_steps=[{'interface': 'vendor', 'step': 'log_passthrough'}])
out['service_started'] = n.provision_state
n = bm.wait_for_nodes_provision_state([p.id], 'active', timeout=60)[0]
out['after_service'] = [n.provision_state, bm.get_node(p.id).last_error]
try:
    bm.get_node(p.id).set_provision_state(bm, 'unhold')
    out['unhold'] = 'accepted'
except openstack.exceptions.BadRequestException as e:
    out['unhold'] = e.details
print(json.dumps(out, default=str))
`;
  const res = await clients.python(script, server().url);
  assert.equal(res.code, 0, res.stderr);
  const out = JSON.parse(res.stdout.trim().split('\n').pop() as string) as Row;
  assert.deepEqual(out.child_parent, [true, true]);
  assert.deepEqual(out.top, ['sdk-parent']);
  assert.deepEqual(out.with_children, ['sdk-child', 'sdk-parent']);
  assert.deepEqual(out.by_parent, ['sdk-child']);
  assert.deepEqual(out.firmware, { firmware: [] });
  assert.deepEqual(out.runbook, { name: 'CUSTOM_SDK', public: false, steps: [VENDOR_STEP], id: 36 });
  assert.deepEqual(out.runbooks, ['CUSTOM_RB1', 'CUSTOM_SDK']);
  assert.deepEqual(out.after_clean, ['manageable', null]);
  // Right after the request the step may still be running (29.0.5) or already done.
  assert.ok(['servicing', 'active'].includes(String(out.service_started)), String(out.service_started));
  assert.deepEqual(out.after_service, ['active', null]);
  assert.match(String(out.unhold), /^The requested action "unhold" can not be performed on node "[0-9a-f-]{36}" while it is in state "active"\.$/);
});
