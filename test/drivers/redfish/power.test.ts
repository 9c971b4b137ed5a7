import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { PowerState } from '../../../src/emulators/redfish';
import { driverInfo, Lab, redfishNode, startLab, withTask } from './support';

let lab: Lab;

before(async () => {
  lab = await startLab({ systems: ['1'], gracefulShutdownDelayMs: 300 });
});

after(async () => {
  await lab.stop();
});

test('power state is read from the system and mapped (PoweringOn/PoweringOff count as on/off)', async () => {
  const node = await redfishNode(lab);
  const sys = lab.bmc.system('1');
  const read = () => withTask(lab, node, (t) => t.driver.power.getPowerState(t));
  sys.powerState = 'Off';
  assert.equal(await read(), 'power off');
  sys.powerState = 'On';
  assert.equal(await read(), 'power on');
  sys.powerState = 'PoweringOff' as PowerState;
  assert.equal(await read(), 'power off');
  sys.powerState = 'PoweringOn' as PowerState;
  assert.equal(await read(), 'power on');
  sys.powerState = 'Off';
});

test('power on / off use On and ForceOff and wait for the state', async () => {
  const node = await redfishNode(lab);
  const sys = lab.bmc.system('1');
  sys.resetHistory.length = 0;
  await withTask(lab, node, (t) => t.driver.power.setPowerState(t, 'power on'));
  assert.equal(sys.powerState, 'On');
  await withTask(lab, node, (t) => t.driver.power.setPowerState(t, 'power off'));
  assert.equal(sys.powerState, 'Off');
  assert.deepEqual(sys.resetHistory, ['On', 'ForceOff']);
});

test('reboot powers off first when on, then on; from off it only powers on', async () => {
  const node = await redfishNode(lab);
  const sys = lab.bmc.system('1');
  sys.powerState = 'On';
  sys.resetHistory.length = 0;
  await withTask(lab, node, (t) => t.driver.power.reboot(t));
  assert.deepEqual(sys.resetHistory, ['ForceOff', 'On']);
  assert.equal(sys.powerState, 'On');
  sys.powerState = 'Off';
  sys.resetHistory.length = 0;
  await withTask(lab, node, (t) => t.driver.power.reboot(t));
  assert.deepEqual(sys.resetHistory, ['On']);
});

test('reboot of a disable_power_off node is one ForceRestart, never a ForceOff', async () => {
  const node = await redfishNode(lab, driverInfo(lab.bmc), { disable_power_off: true });
  const sys = lab.bmc.system('1');
  sys.powerState = 'On';
  sys.resetHistory.length = 0;
  await withTask(lab, node, (t) => t.driver.power.reboot(t));
  assert.deepEqual(sys.resetHistory, ['ForceRestart']);
  assert.equal(sys.powerState, 'On');
});

test('soft power off waits for the graceful shutdown; soft reboot uses GracefulRestart', async () => {
  const node = await redfishNode(lab);
  const sys = lab.bmc.system('1');
  sys.powerState = 'On';
  sys.resetHistory.length = 0;
  await withTask(lab, node, (t) => t.driver.power.setPowerState(t, 'soft power off', 10));
  assert.equal(sys.powerState, 'Off', 'returned only once the delayed shutdown happened');
  sys.powerState = 'On';
  await withTask(lab, node, (t) => t.driver.power.setPowerState(t, 'soft rebooting', 10));
  assert.deepEqual(sys.resetHistory, ['GracefulShutdown', 'GracefulRestart']);
});

test('a shutdown that never completes fails with PowerStateFailure within the timeout', async () => {
  const node = await redfishNode(lab);
  const sys = lab.bmc.system('1');
  sys.powerState = 'On';
  sys.gracefulShutdownDelayMs = 60_000;
  const started = Date.now();
  try {
    await assert.rejects(withTask(lab, node, (t) => t.driver.power.setPowerState(t, 'soft power off', 1)),
      { name: 'PowerStateFailure', message: 'Failed to set node power state to power off.' });
    assert.ok(Date.now() - started < 4000, `took ${Date.now() - started} ms`);
  } finally {
    sys.gracefulShutdownDelayMs = 300;
    sys.reset('ForceOff');
  }
});

test('supported power states and power sync support', async () => {
  const node = await redfishNode(lab);
  await withTask(lab, node, async (t) => {
    assert.deepEqual(await t.driver.power.getSupportedPowerStates(t),
      ['power on', 'power off', 'rebooting', 'soft rebooting', 'soft power off']);
    assert.equal(t.driver.power.supportsPowerSync(t), true);
  });
});

test('a one-time boot device standing in for a persistent one is restored before power on', async () => {
  const node = await redfishNode(lab, driverInfo(lab.bmc), { driver_internal_info: { redfish_boot_device: 'pxe' } });
  const sys = lab.bmc.system('1');
  sys.powerState = 'Off';
  sys.setBoot({ target: 'None', enabled: 'Disabled' });
  await withTask(lab, node, (t) => t.driver.power.setPowerState(t, 'power on'));
  assert.equal(sys.bootHistory.at(-1), 'Pxe');
  sys.reset('ForceOff');
});

test('a reset the BMC refuses becomes a RedfishError with Ironic\'s wording', async () => {
  const node = await redfishNode(lab);
  const sys = lab.bmc.system('1');
  sys.powerState = 'Off';
  await assert.rejects(withTask(lab, node, (t) => t.driver.power.setPowerState(t, 'soft rebooting', 2)), (err: Error) => {
    assert.equal(err.name, 'RedfishError');
    assert.match(err.message, new RegExp(`^Redfish exception occurred\\. Error: Setting power state to soft rebooting failed for node ${node.uuid}\\. Error: .*409`));
    return true;
  });
});
