/**
 * RedfishFirmware against the Redfish emulator over a real socket: the component cache as 29.0.5's
 * sync_firmware_components keeps it, and the update step (SimpleUpdate, targeted at the node's
 * system when the BMC has several, the reboot, the BMC's task).
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

test('update flashes the node\'s own system (one of two), reboots it and caches the new version', async () => {
  const node = await redfishNode(lab);
  await withTask(lab, node, async (t) => firmware.executeStep?.(t, 'update', {
    settings: [{ component: 'bios', url: 'http://127.0.0.1:9/fw/bios-1.2.3.bin' }],
  }));
  assert.equal(lab.bmc.system('1').biosVersion, '1.2.3');
  assert.equal(lab.bmc.system('2').biosVersion, '1.0.0');
  assert.equal(lab.bmc.system('1').powerState, 'On');
  const r = await rows(node.id);
  // Cached after the step only: the row is created with the version found then.
  assert.deepEqual(versions(r.bios), ['1.2.3', '1.2.3', null]);
});

test('a failed BMC task is reported with the URL', async () => {
  const node = await redfishNode(lab);
  await assert.rejects(withTask(lab, node, (t) => firmware.update(t, [{ component: 'bios', url: 'http://127.0.0.1:9/fail.bin' }])),
    (err: Error) => {
      assert.equal(err.name, 'RedfishError');
      assert.ok(err.message.startsWith(`Redfish exception occurred. Error: Firmware update failed for node ${node.uuid}, firmware http://127.0.0.1:9/fail.bin. Error: `), err.message);
      return true;
    });
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
  const node = await redfishNode(lab);
  await lab.svc.api.doProvisioningAction(node.uuid, 'manage');
  await waitForNode(lab.tmp.db, node.uuid, stable('manageable'));
  const before = lab.bmc.system('1').biosVersion;
  assert.deepEqual(versions((await rows(node.id)).bios), [before, before, null]);
  await lab.svc.api.doNodeClean(node.uuid, [{ interface: 'firmware', step: 'update',
    args: { settings: [{ component: 'bios', url: 'http://127.0.0.1:9/fw/bios-7.1.0.bin' }] } }]);
  const done = await waitForNode(lab.tmp.db, node.uuid, stable('manageable'), 30000);
  assert.equal(done.last_error, null);
  assert.equal(lab.bmc.system('1').biosVersion, '7.1.0');
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
    const node = await redfishNode(lab);
    await withTask(lab, node, (t) => firmware.update(t, [{ component: 'bios', url: pathToFileURL(image).href }]));
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
