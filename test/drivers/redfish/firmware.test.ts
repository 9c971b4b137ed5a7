import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as firmwareRows from '../../../src/db/repositories/firmware';
import type { FirmwareInterface } from '../../../src/drivers/base';
import { createRedfishFirmware } from '../../../src/drivers/redfish/firmware';
import { Lab, redfishNode, startLab, withTask } from './support';

let lab: Lab;
// [DEFAULT]enabled_firmware_interfaces is not in the 21.4 option catalog, so the interface is used directly.
const firmware: FirmwareInterface = createRedfishFirmware();

before(async () => {
  lab = await startLab({ systems: ['1'], taskDurationMs: 100 });
});

after(async () => {
  await lab.stop();
});

async function rows(nodeId: number) {
  return Object.fromEntries((await firmwareRows.list(lab.tmp.db, nodeId)).map((r) => [r.component, r]));
}

test('cache_firmware_components records the BIOS and BMC versions', async () => {
  const node = await redfishNode(lab);
  await withTask(lab, node, (t) => firmware.cacheFirmwareComponents(t));
  const r = await rows(node.id);
  assert.equal(r.bios.initial_version, '1.0.0');
  assert.equal(r.bios.current_version, '1.0.0');
  assert.equal(r.bmc.initial_version, '2.0.0');
  assert.equal(r.bmc.last_version_flashed, null);
});

test('update flashes through SimpleUpdate, waits for the task and records the new versions', async () => {
  const node = await redfishNode(lab);
  await withTask(lab, node, async (t) => firmware.executeStep?.(t, 'update', {
    settings: [{ component: 'bios', url: 'http://127.0.0.1:9/fw/bios-1.2.3.bin' }, { component: 'bmc', url: 'http://127.0.0.1:9/fw/bmc-2.5.0.bin' }],
  }));
  const sys = lab.bmc.system('1');
  assert.equal(sys.biosVersion, '1.2.3');
  assert.equal(sys.bmcFirmwareVersion, '2.5.0');
  const r = await rows(node.id);
  assert.deepEqual([r.bios.initial_version, r.bios.current_version, r.bios.last_version_flashed], ['1.0.0', '1.2.3', '1.2.3']);
  assert.deepEqual([r.bmc.initial_version, r.bmc.current_version, r.bmc.last_version_flashed], ['2.0.0', '2.5.0', '2.5.0']);
});

test('a failed BMC task and an unknown component are reported', async () => {
  const node = await redfishNode(lab);
  await assert.rejects(withTask(lab, node, (t) => firmware.update(t, [{ component: 'bios', url: 'http://127.0.0.1:9/fail.bin' }])),
    (err: Error) => {
      assert.equal(err.name, 'RedfishError');
      assert.ok(err.message.startsWith(`Redfish exception occurred. Error: Firmware update failed for node ${node.uuid}, firmware http://127.0.0.1:9/fail.bin. Error: `), err.message);
      return true;
    });
  await assert.rejects(withTask(lab, node, (t) => firmware.update(t, [{ component: 'nic', url: 'http://x/y' }])),
    { name: 'InvalidParameterValue', message: "Unsupported firmware component 'nic'; supported are ['bios', 'bmc']" });
});
