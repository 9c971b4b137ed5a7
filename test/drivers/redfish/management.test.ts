import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Lab, redfishNode, startLab, withTask } from './support';

let lab: Lab;

before(async () => {
  lab = await startLab({ systems: ['1'] });
});

after(async () => {
  await lab.stop();
});

test('supported boot devices and modes', async () => {
  const node = await redfishNode(lab);
  await withTask(lab, node, async (t) => {
    assert.deepEqual(await t.driver.management.getSupportedBootDevices(t), ['pxe', 'disk', 'cdrom', 'bios']);
    assert.deepEqual(await t.driver.management.getSupportedBootModes(t), ['uefi', 'bios']);
  });
});

test('boot device set once / persistent and read back', async () => {
  const node = await redfishNode(lab);
  const sys = lab.bmc.system('1');
  const cases: Array<[string, boolean, string, string]> = [
    ['pxe', false, 'Pxe', 'Once'], ['disk', true, 'Hdd', 'Continuous'], ['cdrom', false, 'Cd', 'Once'], ['bios', true, 'BiosSetup', 'Continuous'],
  ];
  for (const [device, persistent, target, enabled] of cases) {
    await withTask(lab, node, (t) => t.driver.management.setBootDevice(t, device, persistent));
    assert.deepEqual([sys.boot.target, sys.boot.enabled], [target, enabled]);
    const got = await withTask(lab, node, (t) => t.driver.management.getBootDevice(t));
    assert.deepEqual(got, { boot_device: device, persistent });
  }
  sys.setBoot({ target: 'Usb', enabled: 'Disabled' });
  assert.deepEqual(await withTask(lab, node, (t) => t.driver.management.getBootDevice(t)), { boot_device: null, persistent: null });
  await assert.rejects(withTask(lab, node, (t) => t.driver.management.setBootDevice(t, 'floppy', false)),
    { name: 'InvalidParameterValue', message: 'Invalid boot device floppy specified.' });
});

test('a refused persistent boot device falls back to one-time and is remembered for restoration', async () => {
  const node = await redfishNode(lab);
  const sys = lab.bmc.system('1');
  sys.setBoot({ target: 'None', enabled: 'Disabled' });
  const original = sys.setBoot.bind(sys);
  sys.setBoot = (patch) => {
    if (patch.enabled === 'Continuous') throw new Error('persistent boot is not supported');
    original(patch);
  };
  try {
    await withTask(lab, node, (t) => t.driver.management.setBootDevice(t, 'pxe', true));
  } finally {
    sys.setBoot = original;
  }
  assert.deepEqual([sys.boot.target, sys.boot.enabled], ['Pxe', 'Once']);
  const info = await withTask(lab, node, async (t) => t.node.driver_internal_info);
  assert.equal(info?.redfish_boot_device, 'pxe');
  await withTask(lab, node, (t) => t.driver.management.setBootDevice(t, 'disk', false));
  assert.equal((await withTask(lab, node, async (t) => t.node.driver_internal_info))?.redfish_boot_device, undefined);
});

test('boot mode get and set', async () => {
  const node = await redfishNode(lab);
  const sys = lab.bmc.system('1');
  assert.equal(await withTask(lab, node, (t) => t.driver.management.getBootMode(t)), 'uefi');
  await withTask(lab, node, (t) => t.driver.management.setBootMode(t, 'bios'));
  assert.equal(sys.boot.mode, 'Legacy');
  assert.equal(await withTask(lab, node, (t) => t.driver.management.getBootMode(t)), 'bios');
  await withTask(lab, node, (t) => t.driver.management.setBootMode(t, 'uefi'));
  assert.equal(sys.boot.mode, 'UEFI');
});

test('secure boot get/set, and UEFI required to change it', async () => {
  const node = await redfishNode(lab);
  const sys = lab.bmc.system('1');
  assert.equal(await withTask(lab, node, (t) => t.driver.management.getSecureBootState(t)), false);
  await withTask(lab, node, (t) => t.driver.management.setSecureBootState(t, true));
  assert.equal(sys.secureBootEnable, true);
  assert.equal(await withTask(lab, node, (t) => t.driver.management.getSecureBootState(t)), true);
  await withTask(lab, node, (t) => t.driver.management.setSecureBootState(t, false));
  sys.setBoot({ mode: 'Legacy' });
  await assert.rejects(withTask(lab, node, (t) => t.driver.management.setSecureBootState(t, true)), {
    name: 'RedfishError', message: `Redfish exception occurred. Error: Configuring secure boot requires UEFI for node ${node.uuid}`,
  });
  sys.setBoot({ mode: 'UEFI' });
});

test('inject NMI sends an Nmi reset; refused while off', async () => {
  const node = await redfishNode(lab);
  const sys = lab.bmc.system('1');
  sys.reset('On');
  await withTask(lab, node, (t) => t.driver.management.injectNmi(t));
  assert.equal(sys.nmiCount, 1);
  sys.reset('ForceOff');
  await assert.rejects(withTask(lab, node, (t) => t.driver.management.injectNmi(t)), (err: Error) => {
    assert.equal(err.name, 'RedfishError');
    assert.ok(err.message.startsWith(`Redfish exception occurred. Error: Redfish inject NMI failed for node ${node.uuid}. Error: `), err.message);
    return true;
  });
});

test('indicators: the system LED is listed by UUID, read and set', async () => {
  const node = await redfishNode(lab);
  const sys = lab.bmc.system('1');
  const mgmt = (t: Parameters<Parameters<typeof withTask>[2]>[0]) => t.driver.management;
  const supported = await withTask(lab, node, async (t) => mgmt(t).getSupportedIndicators?.(t));
  assert.deepEqual(supported, { system: { [sys.uuid]: { readonly: false, states: ['blinking', 'off', 'on'] } } });
  assert.deepEqual(await withTask(lab, node, async (t) => mgmt(t).getSupportedIndicators?.(t, 'chassis')), {});
  await withTask(lab, node, async (t) => mgmt(t).setIndicatorState?.(t, 'system', sys.uuid, 'blinking'));
  assert.equal(sys.indicatorLed, 'Blinking');
  assert.equal(await withTask(lab, node, async (t) => mgmt(t).getIndicatorState?.(t, 'system', sys.uuid)), 'blinking');
  await assert.rejects(withTask(lab, node, async (t) => mgmt(t).getIndicatorState?.(t, 'system', 'nope')), {
    name: 'MissingParameterValue', message: `Unknown indicator nope for component system of node ${node.uuid}`,
  });
});
