/**
 * The snmp hardware type end to end: the real `baremetal` CLI drives an ironic-ts server whose
 * conductor switches outlets on Debian's snmpd playing a PDU; the outlets are read and switched
 * behind both their backs with Debian's snmpget / snmpset. Expected texts are those Ironic 21.4.4
 * gives for the same steps against the same agent.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { SnmpAgent, V3_AUTH_KEY, V3_PRIV_KEY, V3_USER } from '../../test/drivers/snmp/pdu-agent';
import { APC_OUTLET, layout, statusOid } from '../../test/drivers/snmp/pdu-layouts';
import { startTarget, Target } from '../support/target';
import { cliNodeClient, driverInfoArgs, Row } from '../support/cli-node';

let agent: SnmpAgent;
let target: Target;
const cli = cliNodeClient(() => target.url);

/**
 * Later lines win, so these override referenceLikeConf's fake-only choices; snmp supports no fake boot or
 * deploy (as in Ironic), so its nodes get pxe and ramdisk.
 */
const EXTRA_CONF = `enabled_hardware_types = fake-hardware,snmp
enabled_boot_interfaces = fake,pxe
enabled_deploy_interfaces = fake,ramdisk
default_deploy_interface =
enabled_management_interfaces = fake,noop
enabled_power_interfaces = fake,snmp
[snmp]
power_timeout = 5
udp_transport_timeout = 0.5
udp_transport_retries = 1
[conductor]
sync_power_state_interval = 1
power_state_sync_max_retries = 2
force_power_state_during_sync = false
power_state_change_timeout = 10
`;

const TIMEOUT = "SNMP operation 'GET' failed: No SNMP response received before timeout";
const WRONG_DIGEST = "SNMP operation 'GET' failed: Wrong SNMP PDU digest";

before(async () => {
  agent = new SnmpAgent();
  await agent.start();
  target = await startTarget({ kind: 'ironic-ts', extraConf: EXTRA_CONF });
});

after(async () => {
  await target?.stop();
  await agent?.stop();
});

function v2cInfo(outlet: number, driver = 'apc'): Record<string, string | number> {
  return { snmp_driver: driver, snmp_address: '127.0.0.1', snmp_port: agent.port, snmp_outlet: outlet,
    snmp_version: '2c', snmp_community_read: 'public', snmp_community_write: 'private' };
}

/** The APC outlet as snmpget sees it: 1 on, 2 off. */
const outlet = (n: number): Promise<string> => agent.snmpgetOid(`${APC_OUTLET}.${n}`);

/** The APC outlet's state through snmpget, in the words cyclePower compares. */
async function apcPower(n: number): Promise<'on' | 'off'> {
  const value = await outlet(n);
  assert.match(value, /^[12]$/, `outlet ${n} reads ${value}`);
  return value === '1' ? 'on' : 'off';
}

async function createNode(info: Record<string, string | number>): Promise<string> {
  const created = await cli.bmJson(['node', 'create', '--driver', 'snmp', ...driverInfoArgs(info)]);
  assert.equal(created.driver, 'snmp');
  return String(created.uuid);
}

async function historyEvents(uuid: string): Promise<string[]> {
  const { history } = await cli.api('GET', `/v1/nodes/${uuid}/history`) as { history: Row[] };
  return history.map((h) => String(h.event));
}

async function powerVia(uuid: string, action: 'on' | 'off', state: string): Promise<void> {
  await cli.bmOk(['node', 'power', action, uuid]);
  await cli.waitNode(uuid, (n) => n.power_state === state && n.target_power_state === null, `power ${action}`);
}

test('SNMPv2c: create, validate, power on/off/reboot, boot device, and the power sync noticing snmpset', async () => {
  const created = await cli.bmJson(['node', 'create', '--driver', 'snmp', ...driverInfoArgs(v2cInfo(3))]);
  assert.equal(created.power_interface, 'snmp');
  assert.equal(created.management_interface, 'noop', 'SNMPHardware prefers NoopManagement');
  const uuid = String(created.uuid);

  const validation = await cli.validate(uuid);
  assert.deepEqual(validation.power, { Interface: 'power', Result: true, Reason: '' });
  assert.deepEqual(validation.management, { Interface: 'management', Result: true, Reason: '' });
  assert.deepEqual(validation.bios, { Interface: 'bios', Result: false,
    Reason: 'Driver snmp does not support bios (disabled or not implemented).' });

  const properties = await cli.api('GET', '/v1/drivers/snmp/properties');
  assert.equal(properties.snmp_driver, 'PDU manufacturer driver.  Required.');
  assert.equal(properties.snmp_outlet, 'PDU power outlet index (1-based).  Required.');

  assert.equal((await cli.manage(uuid)).power_state, 'power off');
  assert.equal(await outlet(3), '2');

  await cli.cyclePower(uuid, () => apcPower(3));
  // on, off, then the reboot as off followed by on: what the conductor wrote to the outlet.
  assert.deepEqual((await agent.setsOn(3)).slice(-4), [1, 2, 2, 1]);

  // NoopManagement: pxe and disk are accepted and nothing is written; it always reports pxe, persistent.
  assert.deepEqual(await cli.bmJson(['node', 'boot', 'device', 'show', uuid, '--supported']),
    { supported_boot_devices: 'pxe, disk' });
  const writes = (await agent.writes()).length;
  await cli.bmOk(['node', 'boot', 'device', 'set', uuid, 'disk']);
  assert.deepEqual(await cli.bmJson(['node', 'boot', 'device', 'show', uuid]), { boot_device: 'pxe', persistent: true });
  const cdrom = await cli.bm(['node', 'boot', 'device', 'set', uuid, 'cdrom']);
  assert.notEqual(cdrom.code, 0);
  assert.match(cdrom.stderr, /Invalid boot device cdrom specified, supported are pxe, disk\. \(HTTP 400\)/);
  assert.equal((await agent.writes()).length, writes, 'boot device changes do not touch the PDU');

  // Someone switches the outlet off at the PDU, behind the conductor's back.
  await agent.snmpsetOid(`${APC_OUTLET}.3`, 2);
  const synced = await cli.waitNode(uuid, (n) => n.power_state === 'power off', 'power sync noticing the outlet change');
  assert.equal(synced.maintenance, false);
  assert.equal(synced.last_error, null);
});

test('other PDU models through the CLI: Raritan PDU2 and Eaton (whose relay passes through pending)', async () => {
  for (const [driver, n] of [['raritan_pdu2', 4], ['eatonpower', 5]] as const) {
    const l = layout(driver);
    const uuid = await createNode(v2cInfo(n, driver));
    assert.equal((await cli.manage(uuid)).power_state, 'power off');
    await powerVia(uuid, 'on', 'power on');
    assert.equal(await agent.snmpgetOid(statusOid(l, n)), String(l.on));
    await powerVia(uuid, 'off', 'power off');
    assert.equal(await agent.snmpgetOid(statusOid(l, n)), String(l.off));
  }
});

test('SNMPv3 authPriv: power on/off through the CLI; a wrong auth key is a clear last_error', async () => {
  const v3 = { snmp_driver: 'apc', snmp_address: '127.0.0.1', snmp_port: agent.port, snmp_outlet: 7,
    snmp_user: V3_USER, snmp_auth_protocol: 'sha', snmp_auth_key: V3_AUTH_KEY, snmp_priv_protocol: 'aes', snmp_priv_key: V3_PRIV_KEY };
  // The CLI turns a bare 3 into a JSON number, which Ironic's version check (strings) rejects.
  const numeric = await createNode({ ...v3, snmp_version: 3 });
  const refused = await cli.validate(numeric);
  assert.deepEqual(refused.power, { Interface: 'power', Result: false, Reason: "SNMPPowerDriver: unknown SNMP version: '3'" });

  const uuid = await createNode({ ...v3, snmp_version: '"3"' });
  assert.deepEqual((await cli.validate(uuid)).power, { Interface: 'power', Result: true, Reason: '' });
  assert.equal((await cli.manage(uuid)).power_state, 'power off');
  await powerVia(uuid, 'on', 'power on');
  assert.equal(await outlet(7), '1');
  await powerVia(uuid, 'off', 'power off');
  assert.equal(await outlet(7), '2');

  await cli.bmOk(['node', 'set', uuid, '--driver-info', 'snmp_auth_key=wrongpass123']);
  await cli.bmOk(['node', 'power', 'on', uuid]);
  // The power sync fails on the same key every second and may already have overwritten
  // last_error with its own failure: the node's history keeps both.
  await cli.waitNode(uuid, (n) => typeof n.last_error === 'string' && n.target_power_state === null, 'last_error after power on');
  assert.ok((await historyEvents(uuid)).includes(`Failed to change power state to 'power on': ${WRONG_DIGEST}`));
  assert.ok(String((await cli.api('GET', `/v1/nodes/${uuid}`)).last_error).endsWith(WRONG_DIGEST));
  assert.equal(await outlet(7), '2');
});

test('wrong community: a clear last_error, then maintenance with fault "power failure" after the sync retries', async () => {
  const created = await cli.api('POST', '/v1/nodes', { driver: 'snmp', driver_info: v2cInfo(8) });
  const uuid = String(created.uuid);
  await cli.manage(uuid);
  await cli.api('PATCH', `/v1/nodes/${uuid}`, [
    { op: 'replace', path: '/driver_info/snmp_community_read', value: 'wrong' },
    { op: 'replace', path: '/driver_info/snmp_community_write', value: 'wrong' },
  ]);

  await cli.api('PUT', `/v1/nodes/${uuid}/states/power`, { target: 'power on' });
  await cli.waitNode(uuid, (n) => typeof n.last_error === 'string' && n.target_power_state === null, 'last_error after power on');
  assert.ok((await historyEvents(uuid)).includes(`Failed to change power state to 'power on': ${TIMEOUT}`));
  assert.equal(await outlet(8), '2');

  const shown = await cli.expectSyncMaintenance(uuid, `During sync_power_state, max retries exceeded for node ${uuid}, ` +
    "node state None does not match expected state 'power off'. Updating DB state to 'None' Switching node to " +
    `maintenance mode. Error: ${TIMEOUT}`);
  assert.equal(shown.power_state, null);
});
