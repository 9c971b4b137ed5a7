import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { driverInfo, ipmiNode, Lab, MODES, startLab, withTask } from './support';

for (const mode of MODES) {
  describe(`cipher suites (${mode} client)`, () => {
    let lab: Lab;

    before(async () => {
      // The BMC only speaks suite 17; the clients' default is 3.
      lab = await startLab(mode, { cipher_suite_versions: ['3', '17'] }, { cipherSuites: [17] });
    });

    after(async () => {
      await lab.stop();
    });

    test('ipmi_cipher_suite is used as given', async () => {
      const node = await ipmiNode(lab, driverInfo(lab.bmc.port, { ipmi_cipher_suite: 17 }));
      assert.equal(await withTask(lab, node, (t) => t.driver.power.getPowerState(t)), 'power off');
    });

    test('without it, [ipmi]cipher_suite_versions are tried from the last one after a cipher suite refusal', async () => {
      const node = await ipmiNode(lab);
      assert.equal(await withTask(lab, node, (t) => t.driver.power.getPowerState(t)), 'power off');
    });
  });
}
