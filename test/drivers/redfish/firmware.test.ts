/**
 * RedfishFirmware against the Redfish emulator over a real socket: the component cache as 29.0.5's
 * sync_firmware_components keeps it, and the update step as 29.0.5 runs it: SimpleUpdate (targeted at
 * the node's system when the BMC has several) and a reboot, then the conductor's periodic check
 * following the BMC's task monitor, each `wait`, the next image, and the cleaning's end.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as firmwareRows from '../../../src/db/repositories/firmware';
import type { FirmwareInterface } from '../../../src/drivers/base';
import { stepsOf } from '../../../src/drivers/declared-steps';
import { createRedfishFirmware } from '../../../src/drivers/redfish/firmware';
import { queryFirmwareUpdateFailed, queryFirmwareUpdateStatus } from '../../../src/conductor/periodic/firmware-updates';
import type { NodeRecord } from '../../../src/db/models';
import * as nodesRepo from '../../../src/db/repositories/nodes';
import { stable, waitForNode } from '../../conductor/support';
import { Lab, redfishNode, startLab, withTask } from './support';

let lab: Lab;
const firmware: FirmwareInterface = createRedfishFirmware();

before(async () => {
  lab = await startLab({ systems: ['1', '2'], taskDurationMs: 100 });
});

after(async () => {
  await lab.stop();
});

async function rows(nodeId: number) {
  return Object.fromEntries((await firmwareRows.list(lab.tmp.db, nodeId)).map((r) => [r.component, r]));
}

const versions = (r: { initial_version: string; current_version: string | null; last_version_flashed: string | null }) =>
  [r.initial_version, r.current_version, r.last_version_flashed];

test('cache_firmware_components creates the BIOS and BMC rows, then records a changed version as flashed', async () => {
  const node = await redfishNode(lab);
  await withTask(lab, node, (t) => firmware.cacheFirmwareComponents(t));
  let r = await rows(node.id);
  assert.deepEqual(versions(r.bios), ['1.0.0', '1.0.0', null]);
  assert.deepEqual(versions(r.bmc), ['2.0.0', '2.0.0', null]);
  lab.bmc.system('1').bmcFirmwareVersion = '2.1.0';
  await withTask(lab, node, (t) => firmware.cacheFirmwareComponents(t));
  r = await rows(node.id);
  assert.deepEqual(versions(r.bmc), ['2.0.0', '2.1.0', '2.1.0']);
  assert.deepEqual(versions(r.bios), ['1.0.0', '1.0.0', null]);
  lab.bmc.system('1').bmcFirmwareVersion = '2.0.0';
});

test('update is a deploy, clean and service step, not abortable, needing the ramdisk', () => {
  const info = { step: 'update', priority: 0, interface: 'firmware',
    argsinfo: { settings: { description: 'A list of dicts with firmware components to be updated', required: true } } };
  assert.deepEqual(stepsOf(firmware, 'deploy'), [info]);
  assert.deepEqual(stepsOf(firmware, 'clean'), [{ ...info, abortable: false, requires_ramdisk: true }]);
  assert.deepEqual(stepsOf(firmware, 'service'), [{ ...info, abortable: false, requires_ramdisk: true }]);
});

/** A fake-hardware node driven through Redfish (power, management, firmware) with a fake boot, so no ramdisk needs preparing. */
function fwNode(extra: Record<string, unknown> = {}) {
  return redfishNode(lab, undefined, { driver: 'fake-hardware', power_interface: 'redfish', management_interface: 'redfish',
    firmware_interface: 'redfish', boot_interface: 'fake', ...extra } as never);
}

/** The conductor's periodic firmware check, run until the node leaves clean wait. */
async function pollUntilSettled(uuid: string): Promise<NodeRecord> {
  for (let i = 0; i < 100; i++) {
    await queryFirmwareUpdateStatus(lab.svc.manager, lab.svc.rings);
    const n = await nodesRepo.find(lab.tmp.db, uuid);
    if (n.provision_state !== 'clean wait' && n.reservation === null) return n;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return nodesRepo.find(lab.tmp.db, uuid);
}

async function manualClean(node: NodeRecord, settings: unknown[]): Promise<NodeRecord> {
  await lab.svc.api.doProvisioningAction(node.uuid, 'manage');
  await waitForNode(lab.tmp.db, node.uuid, stable('manageable'));
  await lab.svc.api.doNodeClean(node.uuid, [{ interface: 'firmware', step: 'update', args: { settings } }]);
  return waitForNode(lab.tmp.db, node.uuid, (n) => n.provision_state !== 'cleaning' && n.reservation === null, 30000);
}

test('update starts the first image, reboots and waits; the periodic check follows each BMC task to the end', async () => {
  const node = await fwNode();
  // Ironic targets the node's system whatever the component; the emulator then flashes its BIOS, as sushy-tools.
  const waiting = await manualClean(node, [{ component: 'bios', url: 'http://127.0.0.1:9/fw/bios-1.2.3.bin' },
    { component: 'bios', url: 'http://127.0.0.1:9/fw/bios-1.3.0.bin' }]);
  assert.equal(waiting.provision_state, 'clean wait');
  const info = waiting.driver_internal_info ?? {};
  assert.equal(info.cleaning_polling, true);
  assert.equal(info.cleaning_reboot, true);
  assert.equal(info.skip_current_clean_step, true);
  const pending = info.redfish_fw_updates as Record<string, unknown>[];
  assert.equal(pending.length, 2);
  assert.match(String(pending[0].task_monitor), /^\/redfish\/v1\/TaskService\/TaskMonitors\//);
  const done = await pollUntilSettled(node.uuid);
  assert.equal(done.provision_state, 'manageable', done.last_error ?? '');
  assert.equal(done.last_error, null);
  // Several systems behind the BMC: only the node's own was flashed.
  const names = [...lab.bmc.tasks.tasks.values()].map((t) => t.name).slice(-2);
  assert.deepEqual(names, ['SimpleUpdate http://127.0.0.1:9/fw/bios-1.2.3.bin', 'SimpleUpdate http://127.0.0.1:9/fw/bios-1.3.0.bin']);
  assert.equal(lab.bmc.system('1').biosVersion, '1.3.0');
  assert.equal(lab.bmc.system('2').biosVersion, '1.0.0');
  assert.equal(lab.bmc.system('1').powerState, 'On');
  for (const k of ['redfish_fw_updates', 'firmware_cleanup', 'cleaning_polling']) assert.ok(!Object.hasOwn(done.driver_internal_info ?? {}, k), k);
});

test('a `wait` holds the next step back for its seconds after the BMC task ends', async () => {
  const node = await fwNode();
  await manualClean(node, [{ component: 'bios', url: 'http://127.0.0.1:9/fw/bios-1.4.0.bin', wait: 1 }]);
  await new Promise((resolve) => setTimeout(resolve, 300));
  await queryFirmwareUpdateStatus(lab.svc.manager, lab.svc.rings);
  const held = await nodesRepo.find(lab.tmp.db, node.uuid);
  assert.equal(held.provision_state, 'clean wait');
  const first = (held.driver_internal_info?.redfish_fw_updates as Record<string, unknown>[])[0];
  assert.ok(first.wait_start_time, 'the wait started once the task ended');
  const done = await pollUntilSettled(node.uuid);
  assert.equal(done.provision_state, 'manageable', done.last_error ?? '');
  assert.equal(lab.bmc.system('1').biosVersion, '1.4.0');
});

test('a failed BMC task fails the cleaning with the URL and drops the pending updates', async () => {
  const node = await fwNode();
  await manualClean(node, [{ component: 'bios', url: 'http://127.0.0.1:9/fail.bin' },
    { component: 'bios', url: 'http://127.0.0.1:9/fw/bios-9.9.9.bin' }]);
  const failed = await pollUntilSettled(node.uuid);
  assert.equal(failed.provision_state, 'clean failed');
  assert.ok(failed.last_error?.startsWith(`Firmware update failed for node ${node.uuid}, firmware http://127.0.0.1:9/fail.bin. Error: `),
    failed.last_error ?? '');
  assert.ok(!Object.hasOwn(failed.driver_internal_info ?? {}, 'redfish_fw_updates'));
  assert.notEqual(lab.bmc.system('1').biosVersion, '9.9.9', 'the second image never went out');
});

test('updates left pending on a node that failed into maintenance are discarded by the failure check', async () => {
  const node = await fwNode();
  await nodesRepo.updateFields(lab.tmp.db, node, { provision_state: 'clean failed', maintenance: true,
    driver_internal_info: { redfish_fw_updates: [{ component: 'bios', url: 'http://x/b.bin', task_monitor: '/gone' }] } });
  await queryFirmwareUpdateFailed(lab.svc.manager, lab.svc.rings);
  assert.ok(!Object.hasOwn((await nodesRepo.find(lab.tmp.db, node.uuid)).driver_internal_info ?? {}, 'redfish_fw_updates'));
});

/** What 29.0.5's validate_firmware_interface_update_args says (its jsonschema error text included). */
const INVALID: [unknown, string][] = [
  [[{ component: 'nic', url: 'http://x/y' }], "Invalid firmware update [{'component': 'nic', 'url': 'http://x/y'}]. Errors: 'nic' is not one of ['bios', 'bmc']\n\nFailed validating 'enum' in schema['items']['properties']['component']:\n    {'description': 'name of the firmware component to be updated',\n     'enum': ['bios', 'bmc'],\n     'type': 'string'}\n\nOn instance[0]['component']:\n    'nic'"],
  [[], "Invalid firmware update []. Errors: [] is too short\n\nFailed validating 'minItems' in schema:\n    {'$schema': 'http://json-schema.org/draft-04/schema#',\n     'items': {'additionalProperties': False,\n               'properties': {'component': {'description': 'name of the '\n                                                           'firmware '\n                                                           'component to '\n                                                           'be updated',\n                                            'enum': ['bios', 'bmc'],\n                                            'type': 'string'},\n                              'url': {'description': 'URL for firmware '\n                                                     'file',\n                                      'minLength': 1,\n                                      'type': 'string'},\n                              'wait': {'description': 'optional wait time '\n                                                      'for firmware update',\n                                       'minimum': 1,\n                                       'type': 'integer'}},\n               'required': ['component', 'url'],\n               'type': 'object'},\n     'minItems': 1,\n     'title': 'update_firmware clean step schema',\n     'type': 'array'}\n\nOn instance:\n    []"],
  [[{ component: 'bios', url: 'http://x', wait: 0 }], "Invalid firmware update [{'component': 'bios', 'url': 'http://x', 'wait': 0}]. Errors: 0 is less than the minimum of 1\n\nFailed validating 'minimum' in schema['items']['properties']['wait']:\n    {'description': 'optional wait time for firmware update',\n     'minimum': 1,\n     'type': 'integer'}\n\nOn instance[0]['wait']:\n    0"],
];

test('invalid settings are refused with Ironic\'s schema error before the BMC is touched', async () => {
  const node = await redfishNode(lab);
  for (const [settings, message] of INVALID) {
    await assert.rejects(withTask(lab, node, (t) => firmware.executeStep!(t, 'update', { settings } as never)),
      { name: 'InvalidParameterValue', message });
  }
});

test('verify caches the components, and a manual clean step flashes and records the new BIOS version', async () => {
  const node = await fwNode();
  await lab.svc.api.doProvisioningAction(node.uuid, 'manage');
  await waitForNode(lab.tmp.db, node.uuid, stable('manageable'));
  const before = lab.bmc.system('1').biosVersion;
  assert.deepEqual(versions((await rows(node.id)).bios), [before, before, null]);
  await lab.svc.api.doNodeClean(node.uuid, [{ interface: 'firmware', step: 'update',
    args: { settings: [{ component: 'bios', url: 'http://127.0.0.1:9/fw/bios-7.1.0.bin' }] } }]);
  await waitForNode(lab.tmp.db, node.uuid, (n) => n.provision_state === 'clean wait' && n.reservation === null, 30000);
  const done = await pollUntilSettled(node.uuid);
  assert.equal(done.last_error, null);
  assert.equal(lab.bmc.system('1').biosVersion, '7.1.0');
  // Cached as the step returned (before the BMC had flashed) and again as the cleaning ends.
  assert.deepEqual(versions((await rows(node.id)).bios), [before, '7.1.0', '7.1.0']);
});

test('[redfish]firmware_source = local: the image is staged under http_root/firmware/<node> for the BMC, then removed', async () => {
  const conf = lab.svc.manager.ctx.conf;
  const httpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-http-'));
  const image = path.join(httpRoot, 'bios-3.0.0.bin');
  fs.writeFileSync(image, 'firmware bytes');
  conf.set('redfish', 'firmware_source', 'local');
  conf.set('deploy', 'http_root', httpRoot);
  conf.set('deploy', 'http_url', 'http://conductor.example:8080');
  try {
    const node = await fwNode();
    await manualClean(node, [{ component: 'bios', url: pathToFileURL(image).href }]);
    assert.ok(fs.existsSync(path.join(httpRoot, 'firmware', node.uuid, 'bios-3.0.0.bin')), 'staged while the BMC fetches it');
    assert.equal((await pollUntilSettled(node.uuid)).provision_state, 'manageable');
    assert.equal(lab.bmc.system('1').biosVersion, '3.0.0');
    const names = [...lab.bmc.tasks.tasks.values()].map((t) => t.name);
    assert.equal(names[names.length - 1], `SimpleUpdate http://conductor.example:8080/firmware/${node.uuid}/bios-3.0.0.bin`);
    assert.equal(fs.existsSync(path.join(httpRoot, 'firmware', node.uuid)), false);
    await assert.rejects(withTask(lab, node, (t) => firmware.update(t, [{ component: 'bios', url: 'ftp://h/bios.bin' }])),
      { name: 'InvalidParameterValue', message: 'ftp is not supported for ftp://h/bios.bin.' });
  } finally {
    conf.set('redfish', 'firmware_source', 'http');
    fs.rmSync(httpRoot, { recursive: true, force: true });
  }
});
