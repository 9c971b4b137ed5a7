import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { driverInfo, ipmiNode, Lab, MODES, startLab, withTask } from './support';

for (const mode of MODES) {
  describe(`ipmitool power (${mode} client)`, () => {
    let lab: Lab;

    before(async () => {
      lab = await startLab(mode);
    });

    after(async () => {
      await lab.stop();
    });

    test('power state follows the chassis power bit', async () => {
      const node = await ipmiNode(lab);
      const read = () => withTask(lab, node, (t) => t.driver.power.getPowerState(t));
      lab.bmc.model.power = 'off';
      assert.equal(await read(), 'power off');
      lab.bmc.model.power = 'on';
      assert.equal(await read(), 'power on');
      lab.bmc.model.power = 'off';
    });

    test('power on / off change the BMC and return once it reports the state', async () => {
      const node = await ipmiNode(lab);
      lab.bmc.model.power = 'off';
      await withTask(lab, node, (t) => t.driver.power.setPowerState(t, 'power on'));
      assert.equal(lab.bmc.model.power, 'on');
      await withTask(lab, node, (t) => t.driver.power.setPowerState(t, 'power off'));
      assert.equal(lab.bmc.model.power, 'off');
    });

    test('reboot from on powers off then on; from off only powers on', async () => {
      const node = await ipmiNode(lab);
      lab.bmc.model.power = 'on';
      await withTask(lab, node, (t) => t.driver.power.reboot(t));
      assert.equal(lab.bmc.model.power, 'on');
      lab.bmc.model.power = 'off';
      await withTask(lab, node, (t) => t.driver.power.reboot(t));
      assert.equal(lab.bmc.model.power, 'on');
    });

    test('a disable_power_off node is reset instead of power cycled, and refuses a soft reboot', async () => {
      const node = await ipmiNode(lab, driverInfo(lab.bmc.port), { disable_power_off: true });
      lab.bmc.model.power = 'on';
      const resets = lab.bmc.model.resets;
      await withTask(lab, node, (t) => t.driver.power.reboot(t));
      assert.equal(lab.bmc.model.resets, resets + 1);
      assert.equal(lab.bmc.model.power, 'on');
      await assert.rejects(withTask(lab, node, (t) => t.driver.power.setPowerState(t, 'soft rebooting', 5)), {
        name: 'UnsupportedHardwareFeature',
        message: `Node ${node.uuid} hardware does not support feature soft power off, which is required based upon the requested configuration.`,
      });
      assert.equal(lab.bmc.model.power, 'on');
    });

    test('soft power off and soft reboot', async () => {
      const node = await ipmiNode(lab);
      lab.bmc.model.power = 'on';
      await withTask(lab, node, (t) => t.driver.power.setPowerState(t, 'soft power off', 5));
      assert.equal(lab.bmc.model.power, 'off');
      await withTask(lab, node, (t) => t.driver.power.setPowerState(t, 'soft rebooting', 5));
      assert.equal(lab.bmc.model.power, 'on');
      lab.bmc.model.power = 'off';
    });

    test('an unknown power state is refused with Ironic\'s message; supported states', async () => {
      const node = await ipmiNode(lab);
      await withTask(lab, node, async (t) => {
        await assert.rejects(t.driver.power.setPowerState(t, 'exploded'),
          { name: 'InvalidParameterValue', message: 'set_power_state called with invalid power state exploded.' });
        assert.deepEqual(await t.driver.power.getSupportedPowerStates(t),
          ['power on', 'power off', 'rebooting', 'soft rebooting', 'soft power off']);
        assert.equal(t.driver.power.supportsPowerSync(t), true);
      });
    });

    test('a BMC that never reaches the state fails with PowerStateFailure within the timeout', async () => {
      const node = await ipmiNode(lab);
      lab.bmc.model.power = 'on';
      const realHandle = lab.bmc.model.handle.bind(lab.bmc.model);
      // The BMC acknowledges power off but the chassis stays on.
      lab.bmc.model.handle = (netFn, cmd, data, priv) => (netFn === 0 && cmd === 2 ? { cc: 0, data: Buffer.alloc(0) } : realHandle(netFn, cmd, data, priv));
      const started = Date.now();
      try {
        await assert.rejects(withTask(lab, node, (t) => t.driver.power.setPowerState(t, 'power off', 2)),
          { name: 'PowerStateFailure', message: 'Failed to set node power state to power off.' });
        assert.ok(Date.now() - started < 8000, `took ${Date.now() - started} ms`);
      } finally {
        lab.bmc.model.handle = realHandle;
        lab.bmc.model.power = 'off';
      }
    });

    test('ipmi_force_boot_device: the persistent device is re-sent as one-time before power on', async () => {
      const node = await ipmiNode(lab, driverInfo(lab.bmc.port, { ipmi_force_boot_device: 'true' }));
      lab.bmc.model.power = 'off';
      await withTask(lab, node, (t) => t.driver.management.setBootDevice(t, 'pxe', true));
      await withTask(lab, node, async (t) => {
        assert.equal(t.node.driver_internal_info?.persistent_boot_device, 'pxe');
        assert.deepEqual(await t.driver.management.getBootDevice(t), { boot_device: 'pxe', persistent: true });
      });
      assert.equal(lab.bmc.model.bootFlags[0] & 0x40, 0, 'the BMC itself only got a one-time device');
      lab.bmc.model.bootFlags = Buffer.from([0, 0, 0, 0, 0]);
      await withTask(lab, node, (t) => t.driver.power.setPowerState(t, 'power on'));
      assert.equal(lab.bmc.model.bootFlags[1], 0x04, 'pxe was sent again before power on');
      assert.equal(lab.bmc.model.power, 'on');
      lab.bmc.model.power = 'off';
    });
  });
}
