/** driver_info choices that change the wire: IPMI 1.5 (ipmi_sim's lan channel) and bridging. */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startIpmiSim, type RunningSim } from '../../protocols/ipmi/simulators';
import { driverInfo, ipmiNode, Lab, MODES, startLab, withTask } from './support';

let sim: RunningSim;

before(async () => {
  sim = await startIpmiSim();
});

after(async () => {
  await sim?.stop();
});

for (const mode of MODES) {
  describe(`wire options (${mode} client)`, () => {
    let lab: Lab;

    before(async () => {
      lab = await startLab(mode, {}, { bridgeMode: 'embedded' });
    });

    after(async () => {
      await lab.stop();
    });

    test('ipmi_protocol_version 1.5 talks IPMI 1.5 LAN to ipmi_sim', async () => {
      const node = await ipmiNode(lab, driverInfo(sim.port, { ipmi_protocol_version: '1.5' }));
      await withTask(lab, node, (t) => t.driver.power.setPowerState(t, 'power on'));
      assert.equal(await withTask(lab, node, (t) => t.driver.power.getPowerState(t)), 'power on');
      await withTask(lab, node, (t) => t.driver.power.setPowerState(t, 'power off'));
    });

    test('single bridging reaches the target controller through Send Message', async () => {
      const node = await ipmiNode(lab, driverInfo(lab.bmc.port, {
        ipmi_bridging: 'single', ipmi_target_channel: '0', ipmi_target_address: '0x72',
      }));
      lab.bmc.model.power = 'on';
      assert.equal(await withTask(lab, node, (t) => t.driver.power.getPowerState(t)), 'power on');
      lab.bmc.model.power = 'off';
    });
  });
}
