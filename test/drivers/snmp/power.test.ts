import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { driverInfo, Lab, snmpNode, startLab, STUCK_OUTLET, V3_AUTH_KEY, V3_PRIV_KEY, V3_USER, withTask } from './support';

const VERSIONS: ReadonlyArray<[string, Record<string, unknown>]> = [
  ['1', { snmp_version: '1' }],
  ['2c', { snmp_version: '2c' }],
  ['3', { snmp_version: '3', snmp_community_read: undefined, snmp_community_write: undefined, snmp_user: V3_USER,
    snmp_auth_protocol: 'sha', snmp_auth_key: V3_AUTH_KEY, snmp_priv_protocol: 'aes', snmp_priv_key: V3_PRIV_KEY }],
];

describe('snmp power against snmpd (APC MasterSwitch outlet)', { timeout: 45000 }, () => {
  let lab: Lab;

  before(async () => {
    lab = await startLab();
  });

  after(async () => {
    await lab.stop();
  });

  VERSIONS.forEach(([version, extra], index) => {
    const outlet = index + 2;
    const info = (): Record<string, unknown> => JSON.parse(JSON.stringify(driverInfo(lab.agent.port, { ...extra, snmp_outlet: outlet })));

    test(`SNMPv${version}: power state reads the outlet object`, async () => {
      const node = await snmpNode(lab, info());
      const read = () => withTask(lab, node, (t) => t.driver.power.getPowerState(t));
      await lab.agent.setOutletValue(outlet, 1);
      assert.equal(await read(), 'power on');
      await lab.agent.setOutletValue(outlet, 2);
      assert.equal(await read(), 'power off');
      await lab.agent.setOutletValue(outlet, 7);
      assert.equal(await read(), 'error');
      await lab.agent.setOutletValue(outlet, 2);
    });

    test(`SNMPv${version}: power on / off / reboot write the outlet and read back`, async () => {
      const node = await snmpNode(lab, info());
      await lab.agent.setOutletValue(outlet, 2);
      await withTask(lab, node, (t) => t.driver.power.setPowerState(t, 'power on'));
      assert.equal(await lab.agent.outletValue(outlet), 1);
      assert.equal(await lab.agent.snmpget(outlet), '1');
      await withTask(lab, node, (t) => t.driver.power.setPowerState(t, 'power off'));
      assert.equal(await lab.agent.snmpget(outlet), '2');
      await withTask(lab, node, (t) => t.driver.power.reboot(t));
      assert.equal(await lab.agent.snmpget(outlet), '1');
      assert.equal(await withTask(lab, node, (t) => t.driver.power.getPowerState(t)), 'power on');
      // on, off, then reboot as off followed by on.
      assert.deepEqual((await lab.agent.setsOn(outlet)).slice(-4), [1, 2, 2, 1]);
    });
  });

  test('snmp_driver auto picks APC MasterSwitch from the sysObjectID snmpd reports', async () => {
    const node = await snmpNode(lab, driverInfo(lab.agent.port, { snmp_driver: 'auto', snmp_outlet: 6 }));
    await lab.agent.setOutletValue(6, 2);
    await withTask(lab, node, (t) => t.driver.power.setPowerState(t, 'power on'));
    assert.equal(await lab.agent.snmpget(6), '1');
    assert.equal(await withTask(lab, node, (t) => t.driver.power.getPowerState(t)), 'power on');
  });

  test('an outlet object the agent does not serve is SNMPFailure', async () => {
    const node = await snmpNode(lab, driverInfo(lab.agent.port, { snmp_driver: 'apc_rackpdu' }));
    await assert.rejects(withTask(lab, node, (t) => t.driver.power.setPowerState(t, 'power on')),
      (err: Error) => err.name === 'SNMPFailure' && /SNMP operation 'SET' failed/.test(err.message));
  });

  test('an outlet that never reaches the state is PowerStateFailure after [snmp]power_timeout', async () => {
    const node = await snmpNode(lab, driverInfo(lab.agent.port, { snmp_outlet: STUCK_OUTLET }));
    await assert.rejects(withTask(lab, node, (t) => t.driver.power.setPowerState(t, 'power on')),
      (err: Error) => err.name === 'PowerStateFailure' && err.message === 'Failed to set node power state to power on.');
    await assert.rejects(withTask(lab, node, (t) => t.driver.power.reboot(t)),
      (err: Error) => err.name === 'PowerStateFailure' && err.message === 'Failed to set node power state to power on.');
    // The stuck outlet reads off, so the reboot's power off succeeds and only its power on fails.
    assert.deepEqual(await lab.agent.setsOn(STUCK_OUTLET), [1, 2, 1]);
  });

  test('supported power states and properties', async () => {
    const node = await snmpNode(lab, driverInfo(lab.agent.port));
    const supported = await withTask(lab, node, (t) => t.driver.power.getSupportedPowerStates(t));
    assert.deepEqual(supported, ['power on', 'power off', 'rebooting']);
    const props = await withTask(lab, node, async (t) => t.driver.power.properties());
    assert.equal(props.snmp_driver, 'PDU manufacturer driver.  Required.');
    assert.ok('snmp_security' in props);
  });
});
