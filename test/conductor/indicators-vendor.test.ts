/**
 * Conductor indicator, vendor passthru and target RAID calls on fake-hardware: the fake drivers'
 * facts (drivers/modules/fake.py) and Ironic's lock rules (shared listing, exclusive reading and
 * setting, vendor methods upgrading only when they require it).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  InvalidParameterValue, MissingParameterValue, NodeLocked, UnsupportedDriverExtension, VendorPassthruException,
} from '../../src/common/errors';
import * as nodes from '../../src/db/repositories/nodes';
import { conductorFixture, waitForNode } from './support';

const fx = conductorFixture('vendor-host');

async function newNode(name: string, extra: Record<string, string> = {}) {
  return fx.svc.api.createNode({ name, driver: 'fake-hardware', ...extra });
}

/** Runs `fn` while another conductor holds the node's exclusive lock. */
async function whileLocked<T>(nodeId: number, fn: () => Promise<T>): Promise<T> {
  await nodes.reserve(fx.tmp.db, nodeId, 'other-host');
  try {
    return await fn();
  } finally {
    await nodes.release(fx.tmp.db, nodeId, 'other-host');
  }
}

test('supported indicators are the fake chassis and system LEDs, readable under a held lock', async () => {
  const node = await newNode('ind-list');
  const expected = {
    chassis: { 'led-0': { readonly: true, states: ['off', 'on'] } },
    system: { led: { readonly: false, states: ['blinking', 'off', 'on'] } },
  };
  assert.deepEqual(await fx.svc.api.getSupportedIndicators(node.uuid), expected);
  assert.deepEqual(await whileLocked(node.id, () => fx.svc.api.getSupportedIndicators(node.uuid)), expected);
});

test('indicator state reads "on", rejects unknown ones and needs the exclusive lock', async () => {
  const node = await newNode('ind-state');
  assert.equal(await fx.svc.api.getIndicatorState(node.uuid, 'system', 'led'), 'on');
  assert.equal(await fx.svc.api.getIndicatorState(node.uuid, 'chassis', 'led-0'), 'on');
  await assert.rejects(fx.svc.api.getIndicatorState(node.uuid, 'disk', 'led'),
    (e: Error) => e instanceof InvalidParameterValue && e.message === 'Invalid component disk specified.');
  await assert.rejects(fx.svc.api.getIndicatorState(node.uuid, 'system', 'led-9'),
    (e: Error) => e instanceof InvalidParameterValue && e.message === 'Invalid indicator led-9 specified.');
  await assert.rejects(whileLocked(node.id, () => fx.svc.api.getIndicatorState(node.uuid, 'system', 'led')), NodeLocked);
});

test('setting an indicator is unsupported by fake management, as in Ironic', async () => {
  const node = await newNode('ind-set');
  await assert.rejects(fx.svc.api.setIndicatorState(node.uuid, 'system', 'led', 'off'), (e: Error) =>
    e instanceof UnsupportedDriverExtension &&
    e.message === 'Driver fake-hardware does not support set_indicator_state (disabled or not implemented).');
  assert.equal((await nodes.find(fx.tmp.db, node.id)).reservation, null);
});

test('vendor methods are FakeVendorB\'s, in Ironic\'s order and metadata', async () => {
  const node = await newNode('vendor-list');
  const methods = await fx.svc.api.getNodeVendorPassthruMethods(node.uuid);
  assert.equal(JSON.stringify(methods), JSON.stringify({
    fourth_method_shared_lock: { http_methods: ['POST'], async: true, description: 'Test if the value of bar is woof', attach: false, require_exclusive_lock: false },
    log_passthrough: { http_methods: ['POST'], async: true, description: 'Test pass-through to wait.', attach: false, require_exclusive_lock: true },
    second_method: { http_methods: ['POST'], async: true, description: 'Test if the value of bar is kazoo', attach: false, require_exclusive_lock: true },
    third_method_sync: { http_methods: ['POST'], async: false, description: 'Test if the value of bar is meow', attach: false, require_exclusive_lock: true },
  }));
  const none = await newNode('vendor-none', { vendor_interface: 'no-vendor' });
  assert.deepEqual(await fx.svc.api.getNodeVendorPassthruMethods(none.uuid), {});
});

test('a synchronous vendor call returns the method result', async () => {
  const node = await newNode('vendor-sync');
  assert.deepEqual(await fx.svc.api.vendorPassthru(node.uuid, 'third_method_sync', 'post', { bar: 'meow' }),
    { return: true, async: false, attach: false });
  assert.deepEqual(await fx.svc.api.vendorPassthru(node.uuid, 'third_method_sync', 'POST', { bar: 'woof' }),
    { return: false, async: false, attach: false });
  await assert.rejects(fx.svc.api.vendorPassthru(node.uuid, 'third_method_sync', 'POST', { bar: 'meow', baz: 1 }),
    (e: Error) => e instanceof VendorPassthruException &&
      e.message === "FakeVendorB.third_method_sync() got an unexpected keyword argument 'baz'");
});

test('asynchronous vendor calls answer at once; only exclusive-lock methods fail on a held node', async () => {
  const node = await newNode('vendor-async');
  assert.deepEqual(await fx.svc.api.vendorPassthru(node.uuid, 'second_method', 'POST', { bar: 'kazoo' }),
    { return: null, async: true, attach: false });
  await waitForNode(fx.tmp.db, node.uuid, (n) => n.reservation === null); // the background method's lock
  const shared = await whileLocked(node.id, () =>
    fx.svc.api.vendorPassthru(node.uuid, 'fourth_method_shared_lock', 'POST', { bar: 'woof' }));
  assert.deepEqual(shared, { return: null, async: true, attach: false });
  await assert.rejects(whileLocked(node.id, () =>
    fx.svc.api.vendorPassthru(node.uuid, 'second_method', 'POST', { bar: 'kazoo' })), NodeLocked);
});

test('vendor calls are checked for method, HTTP method and arguments', async () => {
  const node = await newNode('vendor-bad');
  const rejects = (method: string, http: string, data: unknown, cls: typeof InvalidParameterValue, message: string) =>
    assert.rejects(fx.svc.api.vendorPassthru(node.uuid, method, http, data), (e: Error) => e instanceof cls && e.message === message);
  await rejects('first_method', 'POST', { bar: 'baz' }, InvalidParameterValue, 'No handler for method first_method');
  await rejects('second_method', 'GET', {}, InvalidParameterValue, 'The method second_method does not support HTTP GET');
  await rejects('second_method', 'POST', {}, MissingParameterValue, "Parameter 'bar' not passed to method 'second_method'.");
  await rejects('third_method_sync', 'POST', { bar: 0 }, MissingParameterValue,
    "Parameter 'bar' not passed to method 'third_method_sync'.");
  const none = await newNode('vendor-bad-none', { vendor_interface: 'no-vendor' });
  await assert.rejects(fx.svc.api.vendorPassthru(none.uuid, 'second_method', 'POST', { bar: 'x' }),
    (e: Error) => e instanceof InvalidParameterValue && e.message === 'No handler for method second_method');
  assert.equal((await nodes.find(fx.tmp.db, node.id)).reservation, null);
});

test('target RAID config is validated against Ironic\'s schema; an empty one is stored as is', async () => {
  const node = await newNode('raid');
  const before = (await nodes.find(fx.tmp.db, node.id)).target_raid_config;
  const rejects = (config: Record<string, unknown>, message: string) =>
    assert.rejects(fx.svc.api.setTargetRaidConfig(node.uuid, config),
      (e: Error) => e instanceof InvalidParameterValue && e.message === message);
  await rejects({ logical_disks: [{ raid_level: '42' }] }, "RAID config validation error: 'size_gb' is a required property");
  await rejects({ logical_disks: [{ raid_level: '1', size_gb: 10, number_of_physical_disks: 0 }] },
    'RAID config validation error: 0 is less than or equal to the minimum of 0');
  await rejects({ logical_disks: [{ raid_level: '1', size_gb: 10, physical_disks: ['a'] }] },
    "RAID config validation error: 'controller' is a dependency of 'physical_disks'");
  await rejects({ logical_disks: [{ raid_level: '1', size_gb: 1, is_root_volume: true }, { raid_level: '0', size_gb: 'MAX', is_root_volume: true }] },
    'Raid config cannot have more than one root volume. 2 root volumes were specified');
  assert.deepEqual((await nodes.find(fx.tmp.db, node.id)).target_raid_config, before);
  const good = { logical_disks: [{ raid_level: '1', size_gb: 'MAX', is_root_volume: true }] };
  await fx.svc.api.setTargetRaidConfig(node.uuid, good);
  assert.deepEqual((await nodes.find(fx.tmp.db, node.id)).target_raid_config, good);
  const noRaid = await newNode('raid-none', { raid_interface: 'no-raid' });
  await fx.svc.api.setTargetRaidConfig(noRaid.uuid, {});
  await assert.rejects(fx.svc.api.setTargetRaidConfig(noRaid.uuid, good), UnsupportedDriverExtension);
});
