import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { IpmitoolVendor } from '../../../src/drivers/ipmi/vendor';
import { waitForNode } from '../../conductor/support';
import { ipmiNode, Lab, MODES, startLab, withTask } from './support';

for (const mode of MODES) {
  describe(`ipmitool vendor passthru (${mode} client)`, () => {
    let lab: Lab;

    before(async () => {
      lab = await startLab(mode);
    });

    after(async () => {
      await lab.stop();
    });

    test('routes as Ironic lists them; send_raw returns the response bytes; missing raw_bytes refused', async () => {
      const node = await ipmiNode(lab);
      lab.bmc.model.power = 'on';
      await withTask(lab, node, async (t) => {
        const vendor = t.driver.vendor as IpmitoolVendor;
        assert.deepEqual(Object.keys(vendor.routes), ['send_raw', 'bmc_reset']);
        assert.deepEqual(vendor.routes.send_raw.httpMethods, ['POST']);
        assert.equal(await vendor.sendRaw(t, '0x00 0x01'), ' 01 00 00 00');
        await assert.rejects(vendor.validateMethod(t, 'send_raw', {}),
          { name: 'MissingParameterValue', message: 'Parameter raw_bytes (string of bytes) was not specified.' });
        await vendor.validateMethod(t, 'send_raw', { raw_bytes: '0x00 0x01' });
      });
      lab.bmc.model.power = 'off';
    });

    test('through the conductor: methods listed, send_raw runs asynchronously, missing raw_bytes refused', async () => {
      const node = await ipmiNode(lab);
      const methods = await lab.svc.manager.getNodeVendorPassthruMethods(node.uuid);
      assert.deepEqual(Object.keys(methods), ['send_raw', 'bmc_reset']);
      lab.bmc.model.power = 'off';
      const result = await lab.svc.manager.vendorPassthru(node.uuid, 'send_raw', 'POST', { raw_bytes: '0x00 0x02 0x01' });
      assert.equal(result.async, true);
      const deadline = Date.now() + 5000;
      const power = (): string => lab.bmc.model.power;
      while (power() !== 'on' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      assert.equal(power(), 'on', 'the raw Chassis Control power up reached the BMC');
      await waitForNode(lab.tmp.db, node.uuid, (n) => n.reservation === null);
      lab.bmc.model.power = 'off';
      await assert.rejects(lab.svc.manager.vendorPassthru(node.uuid, 'send_raw', 'POST', {}),
        { name: 'MissingParameterValue', message: 'Parameter raw_bytes (string of bytes) was not specified.' });
    });

    test('a command the BMC rejects is IPMIFailure naming it (bmc reset on a BMC without it)', async () => {
      const node = await ipmiNode(lab);
      await withTask(lab, node, async (t) => {
        const vendor = t.driver.vendor as IpmitoolVendor;
        await assert.rejects(vendor.bmcReset(t, 'false'), { name: 'IPMIFailure', message: 'IPMI call failed: bmc reset cold.' });
      });
    });
  });
}
