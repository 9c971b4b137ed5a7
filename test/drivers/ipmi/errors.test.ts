import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { SimBmc } from '../../../src/protocols/ipmi/sim';
import { waitForNode } from '../../conductor/support';
import { driverInfo, ipmiNode, Lab, MODES, startLab, startSilentBmc, withTask } from './support';

/** [ipmi]command_retry_timeout for these tests: every failure must surface within it (plus slack). */
const RETRY_TIMEOUT_S = 3;

for (const mode of MODES) {
  describe(`ipmitool failures (${mode} client)`, () => {
    let lab: Lab;
    let silent: SimBmc;

    before(async () => {
      lab = await startLab(mode, { command_retry_timeout: RETRY_TIMEOUT_S });
      silent = await startSilentBmc();
    });

    after(async () => {
      await lab.stop();
      await silent.stop();
    });

    test('a wrong password is IPMIFailure naming the command, without waiting out the retries', async () => {
      const node = await ipmiNode(lab, driverInfo(lab.bmc.port, { ipmi_password: 'wrong' }));
      const started = Date.now();
      await assert.rejects(withTask(lab, node, (t) => t.driver.power.getPowerState(t)),
        { name: 'IPMIFailure', message: 'IPMI call failed: power status.' });
      assert.ok(Date.now() - started < RETRY_TIMEOUT_S * 1000, `took ${Date.now() - started} ms`);
      await assert.rejects(withTask(lab, node, (t) => t.driver.management.injectNmi(t)),
        { name: 'IPMIFailure', message: 'IPMI call failed: power diag.' });
    });

    test('an unknown user is refused the same way', async () => {
      const node = await ipmiNode(lab, driverInfo(lab.bmc.port, { ipmi_username: 'nobody' }));
      await assert.rejects(withTask(lab, node, (t) => t.driver.management.getBootDevice(t)),
        { name: 'IPMIFailure', message: 'IPMI call failed: chassis bootparam get 5.' });
    });

    test('an unreachable BMC fails within [ipmi]command_retry_timeout', async () => {
      const node = await ipmiNode(lab, driverInfo(silent.port));
      const started = Date.now();
      await assert.rejects(withTask(lab, node, (t) => t.driver.power.getPowerState(t)),
        { name: 'IPMIFailure', message: 'IPMI call failed: power status.' });
      const took = Date.now() - started;
      assert.ok(took < (RETRY_TIMEOUT_S + 2) * 1000, `took ${took} ms`);
      assert.ok(silent.requestsSeen > 0, 'the BMC was asked');
    });

    test('a failed power action leaves Ironic\'s last_error on the node and clears the target', async () => {
      const node = await ipmiNode(lab, driverInfo(lab.bmc.port, { ipmi_password: 'wrong' }));
      await lab.svc.manager.changeNodePowerState(node.uuid, 'power on');
      const failed = await waitForNode(lab.tmp.db, node.uuid, (n) => n.target_power_state === null && n.reservation === null
        && typeof n.last_error === 'string', 15000);
      assert.equal(failed.last_error, "Failed to change power state to 'power on': IPMI call failed: power status.");
      assert.equal(lab.bmc.model.power, 'off');
    });
  });
}
