import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { driverInfo, Lab, redfishNode, startLab, withTask } from './support';

let lab: Lab;
const ISO = 'http://127.0.0.1:9/images/ipa.iso';

before(async () => {
  lab = await startLab({ systems: ['1'] });
});

after(async () => {
  await lab.stop();
});

test('prepare_ramdisk powers off, inserts the deploy ISO and boots the CD once', async () => {
  const node = await redfishNode(lab, driverInfo(lab.bmc, { deploy_iso: ISO }));
  const sys = lab.bmc.system('1');
  sys.reset('On');
  await withTask(lab, node, async (t) => {
    t.node.provision_state = 'deploying';
    await t.driver.boot.prepareRamdisk(t, {}, 'deploy');
  });
  const cd = sys.virtualMedia.get('Cd');
  assert.equal(cd?.inserted, true);
  assert.equal(cd?.image, ISO);
  assert.equal(sys.powerState, 'Off');
  assert.deepEqual([sys.boot.target, sys.boot.enabled], ['Cd', 'Once']);

  await withTask(lab, node, (t) => t.driver.boot.cleanUpRamdisk(t, 'deploy'));
  assert.equal(cd?.inserted, false);
});

test('prepare_ramdisk outside deploy/clean/rescue/inspect states leaves the node alone', async () => {
  const node = await redfishNode(lab, driverInfo(lab.bmc, { deploy_iso: ISO }));
  const sys = lab.bmc.system('1');
  sys.resetHistory.length = 0;
  await withTask(lab, node, (t) => t.driver.boot.prepareRamdisk(t, {}, 'deploy'));
  assert.equal(sys.virtualMedia.get('Cd')?.inserted, false);
  assert.deepEqual(sys.resetHistory, []);
});

test('prepare_instance ejects the media and boots from disk persistently', async () => {
  const node = await redfishNode(lab, driverInfo(lab.bmc, { deploy_iso: ISO }));
  const sys = lab.bmc.system('1');
  sys.virtualMedia.get('Cd')?.insert({ image: ISO });
  await withTask(lab, node, (t) => t.driver.boot.prepareInstance(t));
  assert.equal(sys.virtualMedia.get('Cd')?.inserted, false);
  assert.deepEqual([sys.boot.target, sys.boot.enabled], ['Hdd', 'Continuous']);
});

test('a kernel/ramdisk pair validates but cannot be turned into an ISO here', async () => {
  const node = await redfishNode(lab, driverInfo(lab.bmc, { deploy_kernel: 'http://k', deploy_ramdisk: 'http://r' }));
  await withTask(lab, node, async (t) => {
    await t.driver.boot.validate(t);
    t.node.provision_state = 'cleaning';
    await assert.rejects(t.driver.boot.prepareRamdisk(t, {}, 'clean'), { name: 'InvalidParameterValue', message: /deploy_iso/ });
  });
});

test('vendor passthru eject_vmedia through the conductor', async () => {
  const node = await redfishNode(lab, driverInfo(lab.bmc, { deploy_iso: ISO }));
  assert.equal(node.vendor_interface, 'redfish');
  const cd = lab.bmc.system('1').virtualMedia.get('Cd');
  cd?.eject();
  cd?.insert({ image: ISO });
  const methods = await withTask(lab, node, async (t) => Object.keys(t.driver.vendor.routes));
  assert.deepEqual(methods, ['eject_vmedia']);
  await assert.rejects(withTask(lab, node, async (t) => t.driver.vendor.validateMethod?.(t, 'eject_vmedia', { boot_device: 'tape' })),
    { name: 'InvalidParameterValue', message: 'Boot device tape is not a valid value ' });
  await withTask(lab, node, async (t) => {
    await t.driver.vendor.validateMethod?.(t, 'eject_vmedia', { boot_device: 'cd' });
    await t.driver.vendor.invoke?.(t, 'eject_vmedia', { boot_device: 'cd' });
  });
  assert.equal(cd?.inserted, false);
});
