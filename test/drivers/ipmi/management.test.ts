import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { driverInfo, ipmiNode, Lab, MODES, startLab, withTask } from './support';

const BIOS_MODE = { properties: { capabilities: 'boot_mode:bios' } };

for (const mode of MODES) {
  describe(`ipmitool management (${mode} client)`, () => {
    let lab: Lab;

    before(async () => {
      lab = await startLab(mode);
    });

    after(async () => {
      await lab.stop();
    });

    const flags = () => [...lab.bmc.model.bootFlags];

    test('UEFI (the default boot mode): raw boot flags with the EFI bit, once or persistent', async () => {
      const node = await ipmiNode(lab);
      await withTask(lab, node, (t) => t.driver.management.setBootDevice(t, 'pxe', false));
      assert.deepEqual(flags(), [0xa0, 0x04, 0, 0, 0]);
      await withTask(lab, node, (t) => t.driver.management.setBootDevice(t, 'disk', true));
      assert.deepEqual(flags(), [0xe0, 0x08, 0, 0, 0]);
      assert.deepEqual(await withTask(lab, node, (t) => t.driver.management.getBootDevice(t)), { boot_device: 'disk', persistent: true });
    });

    test('Supermicro in UEFI boots its disk with selector 0x24', async () => {
      const node = await ipmiNode(lab, driverInfo(lab.bmc.port), { properties: { vendor: 'Supermicro' } });
      await withTask(lab, node, (t) => t.driver.management.setBootDevice(t, 'disk', false));
      assert.deepEqual(flags(), [0xa0, 0x24, 0, 0, 0]);
    });

    test('legacy BIOS boot mode: chassis bootdev, once or persistent, read back', async () => {
      const node = await ipmiNode(lab, driverInfo(lab.bmc.port), BIOS_MODE);
      await withTask(lab, node, (t) => t.driver.management.setBootDevice(t, 'cdrom', false));
      assert.equal(flags()[0] & 0xe0, 0x80, 'valid, one-time, no EFI');
      assert.equal(flags()[1], 0x14);
      assert.deepEqual(await withTask(lab, node, (t) => t.driver.management.getBootDevice(t)), { boot_device: 'cdrom', persistent: false });
      await withTask(lab, node, (t) => t.driver.management.setBootDevice(t, 'pxe', true));
      assert.equal(flags()[0] & 0xe0, 0xc0, 'valid, persistent, no EFI');
      assert.deepEqual(await withTask(lab, node, (t) => t.driver.management.getBootDevice(t)), { boot_device: 'pxe', persistent: true });
      await withTask(lab, node, (t) => t.driver.management.setBootDevice(t, 'safe', false));
      assert.deepEqual(await withTask(lab, node, (t) => t.driver.management.getBootDevice(t)), { boot_device: 'safe', persistent: false });
    });

    test('an unknown boot device is refused before touching the BMC; the supported list is Ironic\'s', async () => {
      const node = await ipmiNode(lab);
      await withTask(lab, node, async (t) => {
        await assert.rejects(t.driver.management.setBootDevice(t, 'floppy', false),
          { name: 'InvalidParameterValue', message: 'Invalid boot device floppy specified.' });
        assert.deepEqual(await t.driver.management.getSupportedBootDevices(t), ['pxe', 'disk', 'cdrom', 'bios', 'safe']);
      });
    });

    test('inject NMI sends a diagnostic interrupt', async () => {
      const node = await ipmiNode(lab);
      const before = lab.bmc.model.diagInterrupts;
      await withTask(lab, node, (t) => t.driver.management.injectNmi(t));
      assert.equal(lab.bmc.model.diagInterrupts, before + 1);
    });

    test('boot mode and secure boot are not IPMI features', async () => {
      const node = await ipmiNode(lab);
      await withTask(lab, node, async (t) => {
        await assert.rejects(t.driver.management.getBootMode(t),
          { name: 'UnsupportedDriverExtension', message: 'Driver ipmi does not support get_boot_mode (disabled or not implemented).' });
        await assert.rejects(t.driver.management.setSecureBootState(t, true), { name: 'UnsupportedDriverExtension' });
      });
    });
  });
}
