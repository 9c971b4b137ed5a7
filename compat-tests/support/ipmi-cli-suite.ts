/**
 * The ipmi hardware type end to end, as a suite both client modes run: the real `baremetal` CLI
 * drives an ironic-ts server whose conductor talks IPMI to a simulated BMC; the BMC is checked and
 * changed behind both their backs with the ipmitool CLI.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SimBmc } from '../../src/protocols/ipmi/sim';
import { ipmitool, PASSWORD, USER } from '../../test/protocols/ipmi/simulators';
import { freePort, startIronicTs, Target } from './target';
import { cliNodeClient } from './cli-node';

/**
 * Later lines win, so these override referenceLikeConf's fake-only choices; ipmi supports no fake boot or
 * deploy (as in Ironic), so its nodes get pxe and ramdisk.
 */
function extraConf(useBinary: boolean): string {
  return `enabled_hardware_types = fake-hardware,ipmi
enabled_boot_interfaces = fake,pxe
enabled_deploy_interfaces = fake,ramdisk
default_deploy_interface =
enabled_management_interfaces = fake,ipmitool
enabled_power_interfaces = fake,ipmitool
enabled_vendor_interfaces = fake,no-vendor,ipmitool
[ipmi]
use_ipmitool_binary = ${useBinary}
command_retry_timeout = 3
min_command_interval = 0
[conductor]
sync_power_state_interval = 1
power_state_sync_max_retries = 2
force_power_state_during_sync = false
power_state_change_timeout = 10
`;
}

/** Defines the suite for one [ipmi]use_ipmitool_binary value. */
export function ipmiCliSuite(useBinary: boolean): void {
  describe(`ipmi through the baremetal CLI ([ipmi]use_ipmitool_binary = ${useBinary})`, () => {
    let bmc: SimBmc;
    let target: Target;

    before(async () => {
      bmc = new SimBmc({ users: [{ name: USER, password: PASSWORD, maxPriv: 4 }] });
      await bmc.start();
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ironic-ipmi-cli-'));
      target = await startIronicTs(dir, await freePort(), extraConf(useBinary));
    });

    after(async () => {
      await target?.stop();
      await bmc?.stop();
    });

    const { bmJson, bmOk, api, waitNode, manage, validate, expectSyncMaintenance, cyclePower } = cliNodeClient(() => target.url);

    const bmcPower = async (): Promise<string> => (await ipmitool(bmc.port, ['power', 'status'])).trim();

    test('create, validate, power on/off/reboot, boot device, and the power sync noticing ipmitool', async () => {
      const created = await bmJson(['node', 'create', '--driver', 'ipmi', '--driver-info', 'ipmi_address=127.0.0.1',
        '--driver-info', `ipmi_port=${bmc.port}`, '--driver-info', `ipmi_username=${USER}`, '--driver-info', `ipmi_password=${PASSWORD}`]);
      assert.equal(created.driver, 'ipmi');
      assert.equal(created.power_interface, 'ipmitool');
      assert.equal(created.management_interface, 'ipmitool');
      const uuid = String(created.uuid);

      const byIface = await validate(uuid);
      assert.equal(byIface.power.Result, true, JSON.stringify(byIface.power));
      assert.equal(byIface.management.Result, true, JSON.stringify(byIface.management));

      const properties = await api('GET', '/v1/drivers/ipmi/properties');
      assert.equal(properties.ipmi_address, 'IP address or hostname of the node. Required.');
      assert.equal(properties.ipmi_port, 'remote IPMI RMCP port. Optional.');

      assert.equal((await manage(uuid)).power_state, 'power off');

      await cyclePower(uuid, async () => {
        const status = await bmcPower();
        assert.match(status, /^Chassis Power is (on|off)$/);
        return status.endsWith('on') ? 'on' : 'off';
      });

      await bmOk(['node', 'boot', 'device', 'set', uuid, 'pxe', '--persistent']);
      assert.deepEqual(await bmJson(['node', 'boot', 'device', 'show', uuid]), { boot_device: 'pxe', persistent: true });
      const param5 = await ipmitool(bmc.port, ['chassis', 'bootparam', 'get', '5']);
      assert.match(param5, /Boot Device Selector : Force PXE/);
      assert.match(param5, /Options apply to all future boots/);
      assert.match(param5, /BIOS EFI boot/, 'UEFI is the default boot mode');

      // Someone powers the machine off behind Ironic's back.
      await ipmitool(bmc.port, ['power', 'off']);
      const synced = await waitNode(uuid, (n) => n.power_state === 'power off', 'power sync noticing the BMC change');
      assert.equal(synced.maintenance, false);
      assert.equal(synced.last_error, null);
    });

    test('wrong credentials: a clear last_error, then maintenance with fault "power failure" after the sync retries', async () => {
      const created = await api('POST', '/v1/nodes', {
        driver: 'ipmi', driver_info: { ipmi_address: '127.0.0.1', ipmi_port: bmc.port, ipmi_username: USER, ipmi_password: PASSWORD },
      });
      const uuid = String(created.uuid);
      await manage(uuid);
      await api('PATCH', `/v1/nodes/${uuid}`, [{ op: 'replace', path: '/driver_info/ipmi_password', value: 'wrong-password' }]);
      const before = bmc.model.power;

      await api('PUT', `/v1/nodes/${uuid}/states/power`, { target: 'power on' });
      const failed = await waitNode(uuid, (n) => typeof n.last_error === 'string' && n.target_power_state === null, 'last_error after power on');
      assert.equal(failed.last_error, "Failed to change power state to 'power on': IPMI call failed: power status.");
      assert.equal(bmc.model.power, before);

      await expectSyncMaintenance(uuid, /IPMI call failed: power status\.$/);
    });
  });
}
