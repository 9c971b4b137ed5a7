/**
 * The redfish hardware type end to end: the real `baremetal` CLI drives an ironic-ts server whose
 * conductor talks to a Redfish emulator; the emulator's state is checked behind both their backs.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startRedfishEmulator, RedfishEmulator } from '../../src/emulators/redfish';
import { startTarget, Target } from '../support/target';
import { cliNodeClient } from '../support/cli-node';

const USER = 'admin';
const PASSWORD = 'secret';

let bmc: RedfishEmulator;
let target: Target;

const EXTRA_CONF = `enabled_hardware_types = fake-hardware,redfish
enabled_bios_interfaces = fake,no-bios,redfish
enabled_boot_interfaces = fake,redfish-virtual-media
enabled_deploy_interfaces = fake,ramdisk
default_deploy_interface =
enabled_management_interfaces = fake,redfish
enabled_power_interfaces = fake,redfish
[redfish]
connection_attempts = 1
connection_retry_interval = 1
[conductor]
sync_power_state_interval = 1
power_state_sync_max_retries = 2
force_power_state_during_sync = false
power_state_change_timeout = 10
`;

before(async () => {
  bmc = await startRedfishEmulator({ systems: ['1', '2'], auth: { username: USER, password: PASSWORD } });
  target = await startTarget({ kind: 'ironic-ts', extraConf: EXTRA_CONF });
});

after(async () => {
  await target?.stop();
  await bmc?.stop();
});

const { bmJson, bmOk, api, waitNode, manage, validate, expectSyncMaintenance } = cliNodeClient(() => target.url);

function redfishInfo(systemId: string, password = PASSWORD): Record<string, string> {
  return {
    redfish_address: bmc.url, redfish_username: USER, redfish_password: password, redfish_system_id: `/redfish/v1/Systems/${systemId}`,
  };
}

test('create, validate, power on/off/reboot, boot device, and power sync noticing a change on the BMC', async () => {
  const sys = bmc.system('1');
  const args = Object.entries(redfishInfo('1')).flatMap(([k, v]) => ['--driver-info', `${k}=${v}`]);
  const created = await bmJson(['node', 'create', '--driver', 'redfish', ...args]);
  assert.equal(created.driver, 'redfish');
  assert.equal(created.power_interface, 'redfish');
  assert.equal(created.management_interface, 'redfish');
  const uuid = String(created.uuid);

  const byIface = await validate(uuid);
  assert.equal(byIface.power.Result, true, JSON.stringify(byIface.power));
  assert.equal(byIface.management.Result, true, JSON.stringify(byIface.management));

  assert.equal((await manage(uuid)).power_state, 'power off');

  await bmOk(['node', 'power', 'on', uuid]);
  await waitNode(uuid, (n) => n.power_state === 'power on' && n.target_power_state === null, 'power on');
  assert.equal(sys.powerState, 'On');

  await bmOk(['node', 'power', 'off', uuid]);
  await waitNode(uuid, (n) => n.power_state === 'power off' && n.target_power_state === null, 'power off');
  assert.equal(sys.powerState, 'Off');

  sys.reset('On');
  await waitNode(uuid, (n) => n.power_state === 'power on', 'sync noticing the BMC powered on');
  sys.resetHistory.length = 0;
  await bmOk(['node', 'reboot', uuid]);
  await waitNode(uuid, (n) => n.power_state === 'power on' && n.target_power_state === null && sys.resetHistory.length >= 2, 'reboot');
  assert.deepEqual(sys.resetHistory, ['ForceOff', 'On']);

  await bmOk(['node', 'boot', 'device', 'set', uuid, 'pxe', '--persistent']);
  assert.deepEqual([sys.boot.target, sys.boot.enabled], ['Pxe', 'Continuous']);
  assert.deepEqual(await bmJson(['node', 'boot', 'device', 'show', uuid]), { boot_device: 'pxe', persistent: true });

  // Someone presses the power button behind Ironic's back.
  sys.reset('ForceOff');
  const synced = await waitNode(uuid, (n) => n.power_state === 'power off', 'power sync noticing the BMC change');
  assert.equal(synced.maintenance, false);
  assert.equal(synced.last_error, null);
});

test('wrong credentials: a clear last_error, then maintenance with fault "power failure" after the sync retries', async () => {
  const created = await api('POST', '/v1/nodes', { driver: 'redfish', driver_info: redfishInfo('2') });
  const uuid = String(created.uuid);
  await manage(uuid);
  await api('PATCH', `/v1/nodes/${uuid}`, [{ op: 'replace', path: '/driver_info/redfish_password', value: 'wrong-password' }]);

  await api('PUT', `/v1/nodes/${uuid}/states/power`, { target: 'power on' });
  const failed = await waitNode(uuid, (n) => typeof n.last_error === 'string' && n.target_power_state === null, 'last_error after power on');
  assert.match(String(failed.last_error), /power on/);
  assert.match(String(failed.last_error), /Redfish exception occurred\. Error: .*401/);
  assert.equal(bmc.system('2').powerState, 'Off');

  await expectSyncMaintenance(uuid, /Redfish exception occurred\. Error: .*401/);
});
