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
import { baremetal, parseJson, RunResult } from './python';

type Row = Record<string, unknown>;

/** Later lines win, so these override referenceLikeConf's fake-only choices. */
function extraConf(useBinary: boolean): string {
  return `enabled_hardware_types = fake-hardware,ipmi
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

const API_HEADERS = { 'X-OpenStack-Ironic-API-Version': '1.82', 'Content-Type': 'application/json' };

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

    const bm = (args: string[]): Promise<RunResult> => baremetal(target.url, args);

    async function bmJson<T = Row>(args: string[]): Promise<T> {
      return parseJson<T>(await bm([...args, '-f', 'json']));
    }

    async function bmOk(args: string[]): Promise<void> {
      const res = await bm(args);
      assert.equal(res.code, 0, `baremetal ${args.join(' ')}: ${res.stderr}`);
    }

    /** A direct API call, for steps this test does not check (the CLI is slow to start). */
    async function api(method: string, urlPath: string, body?: unknown): Promise<Row> {
      const res = await fetch(`${target.url}${urlPath}`, { method, headers: API_HEADERS, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      assert.ok(res.ok, `${method} ${urlPath}: ${res.status} ${text}`);
      return text ? (JSON.parse(text) as Row) : {};
    }

    async function waitNode(uuid: string, pred: (n: Row) => boolean, what: string, timeoutMs = 20000): Promise<Row> {
      const deadline = Date.now() + timeoutMs;
      let node: Row = {};
      while (Date.now() < deadline) {
        node = await api('GET', `/v1/nodes/${uuid}`);
        if (pred(node) && node.reservation === null) return node;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`node ${uuid} never reached: ${what}; last ${JSON.stringify(node).slice(0, 600)}`);
    }

    async function manage(uuid: string): Promise<Row> {
      await api('PUT', `/v1/nodes/${uuid}/states/provision`, { target: 'manage' });
      return waitNode(uuid, (n) => n.provision_state === 'manageable', 'manageable');
    }

    const bmcPower = async (): Promise<string> => (await ipmitool(bmc.port, ['power', 'status'])).trim();

    test('create, validate, power on/off/reboot, boot device, and the power sync noticing ipmitool', async () => {
      const created = await bmJson(['node', 'create', '--driver', 'ipmi', '--driver-info', 'ipmi_address=127.0.0.1',
        '--driver-info', `ipmi_port=${bmc.port}`, '--driver-info', `ipmi_username=${USER}`, '--driver-info', `ipmi_password=${PASSWORD}`]);
      assert.equal(created.driver, 'ipmi');
      assert.equal(created.power_interface, 'ipmitool');
      assert.equal(created.management_interface, 'ipmitool');
      const uuid = String(created.uuid);

      const validation = await bmJson<Row[]>(['node', 'validate', uuid]);
      const byIface = Object.fromEntries(validation.map((r) => [r.Interface, r]));
      assert.equal(byIface.power.Result, true, JSON.stringify(byIface.power));
      assert.equal(byIface.management.Result, true, JSON.stringify(byIface.management));

      const properties = await api('GET', '/v1/drivers/ipmi/properties');
      assert.equal(properties.ipmi_address, 'IP address or hostname of the node. Required.');
      assert.equal(properties.ipmi_port, 'remote IPMI RMCP port. Optional.');

      assert.equal((await manage(uuid)).power_state, 'power off');

      await bmOk(['node', 'power', 'on', uuid]);
      await waitNode(uuid, (n) => n.power_state === 'power on' && n.target_power_state === null, 'power on');
      assert.equal(await bmcPower(), 'Chassis Power is on');

      await bmOk(['node', 'power', 'off', uuid]);
      await waitNode(uuid, (n) => n.power_state === 'power off' && n.target_power_state === null, 'power off');
      assert.equal(await bmcPower(), 'Chassis Power is off');

      await bmOk(['node', 'reboot', uuid]);
      await waitNode(uuid, (n) => n.power_state === 'power on' && n.target_power_state === null, 'reboot');
      assert.equal(await bmcPower(), 'Chassis Power is on');

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

      await waitNode(uuid, (n) => n.maintenance === true, 'maintenance after repeated sync failures');
      const shown = await bmJson(['node', 'show', uuid, '--fields', 'maintenance', 'fault', 'maintenance_reason', 'last_error']);
      assert.equal(shown.maintenance, true);
      assert.equal(shown.fault, 'power failure');
      assert.match(String(shown.maintenance_reason), /^During sync_power_state, max retries exceeded for node /);
      assert.match(String(shown.last_error), /IPMI call failed: power status\.$/);
    });
  });
}
