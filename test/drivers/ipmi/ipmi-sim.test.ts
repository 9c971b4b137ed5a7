/** The ipmitool interfaces against OpenIPMI's ipmi_sim, a BMC implementation that is not ours. */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ipmitool, startIpmiSim, type RunningSim } from '../../protocols/ipmi/simulators';
import { driverInfo, ipmiNode, Lab, MODES, startLab, withTask } from './support';

let sim: RunningSim;

before(async () => {
  sim = await startIpmiSim();
});

after(async () => {
  await sim?.stop();
});

for (const mode of MODES) {
  describe(`ipmi_sim (${mode} client)`, () => {
    let lab: Lab;

    before(async () => {
      lab = await startLab(mode);
    });

    after(async () => {
      await lab.stop();
    });

    test('power on, status, reboot, off', async () => {
      const node = await ipmiNode(lab, driverInfo(sim.port));
      await withTask(lab, node, (t) => t.driver.power.setPowerState(t, 'power on'));
      assert.match(await ipmitool(sim.port, ['power', 'status']), /Chassis Power is on/);
      assert.equal(await withTask(lab, node, (t) => t.driver.power.getPowerState(t)), 'power on');
      await withTask(lab, node, (t) => t.driver.power.reboot(t));
      assert.equal(await withTask(lab, node, (t) => t.driver.power.getPowerState(t)), 'power on');
      await withTask(lab, node, (t) => t.driver.power.setPowerState(t, 'power off'));
      assert.match(await ipmitool(sim.port, ['power', 'status']), /Chassis Power is off/);
    });

    test('boot device set and read back (legacy BIOS mode; ipmi_sim keeps the device, not the flags)', async () => {
      const node = await ipmiNode(lab, driverInfo(sim.port), { properties: { capabilities: 'boot_mode:bios' } });
      await withTask(lab, node, (t) => t.driver.management.setBootDevice(t, 'pxe', true));
      assert.equal((await withTask(lab, node, (t) => t.driver.management.getBootDevice(t))).boot_device, 'pxe');
      assert.match(await ipmitool(sim.port, ['chassis', 'bootparam', 'get', '5']), /Force PXE/);
    });
  });
}
