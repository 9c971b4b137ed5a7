/**
 * Every PDU model of Ironic's snmp_driver table (but `apc`, covered in power.test.ts, and
 * `auto`) against snmpd playing that PDU: the driver writes the model's action objects with its
 * values, reads the status object back, and snmpget / snmpset see and move the same outlet.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { driverInfo, Lab, snmpNode, startLab, withTask } from './support';
import { PDU_LAYOUTS, statusOid, type PduLayout } from './pdu-layouts';
import type { NodeRecord } from '../../../src/db/models';

/** The OID=value a SET of the action with status `goal` writes for an outlet. */
function actionWrite(l: PduLayout, outlet: number, goal: number): string {
  const action = l.actions.find((a) => a.becomes === goal && a.value !== '*');
  assert.ok(action, `${l.driver} has an action reaching ${goal}`);
  return `${action.column}.${outlet}${l.suffix}=${action.value}`;
}

describe('snmp power against snmpd playing each PDU model', { timeout: 120000 }, () => {
  let lab: Lab;

  before(async () => {
    lab = await startLab();
  });

  after(async () => {
    await lab.stop();
  });

  const power = (node: NodeRecord) => ({
    read: () => withTask(lab, node, (t) => t.driver.power.getPowerState(t)),
    set: (state: string) => withTask(lab, node, (t) => t.driver.power.setPowerState(t, state)),
    reboot: () => withTask(lab, node, (t) => t.driver.power.reboot(t)),
  });

  PDU_LAYOUTS.filter((l) => l.driver !== 'apc').forEach((l, index) => {
    const outlet = 5 + index;

    test(`${l.driver}: on / off / reboot write the model's objects and the outlet follows`, async () => {
      const node = await snmpNode(lab, driverInfo(lab.agent.port, { snmp_driver: l.driver, snmp_outlet: outlet }));
      const pdu = power(node);
      assert.equal(await pdu.read(), 'power off', 'an outlet nobody switched is off');
      const before = (await lab.agent.writes()).length;

      await pdu.set('power on');
      assert.equal(await lab.agent.settledStatus(l.driver, outlet), l.on);
      assert.equal(await pdu.read(), 'power on');
      await pdu.set('power off');
      assert.equal(await lab.agent.settledStatus(l.driver, outlet), l.off);
      await pdu.reboot();
      assert.equal(await lab.agent.settledStatus(l.driver, outlet), l.on);
      assert.equal(await pdu.read(), 'power on');

      const on = actionWrite(l, outlet, l.on);
      const off = actionWrite(l, outlet, l.off);
      assert.deepEqual((await lab.agent.writes()).slice(before), [on, off, off, on]);
    });

    test(`${l.driver}: the driver reads changes made with snmpset; the agent refuses writes the MIB does not allow`, async () => {
      const node = await snmpNode(lab, driverInfo(lab.agent.port, { snmp_driver: l.driver, snmp_outlet: outlet }));
      const pdu = power(node);
      const [column, value] = actionWrite(l, outlet, l.on).split('=');
      await lab.agent.snmpsetOid(column, Number(value));
      await lab.agent.settledStatus(l.driver, outlet);
      assert.equal(await pdu.read(), 'power on');
      const [offColumn, offValue] = actionWrite(l, outlet, l.off).split('=');
      await lab.agent.snmpsetOid(offColumn, Number(offValue));
      await lab.agent.settledStatus(l.driver, outlet);
      assert.equal(await pdu.read(), 'power off');
      // A status read back that is neither on nor off (status objects are read-only: the agent
      // refuses a write to one, so the outlet keeps its state).
      await assert.rejects(lab.agent.snmpsetOid(statusOid(l, outlet), 42));
      assert.equal(await pdu.read(), 'power off');
    });
  });

  test('a PDU that passes through a pending state: the driver polls until the outlet settles', async () => {
    const node = await snmpNode(lab, driverInfo(lab.agent.port, { snmp_driver: 'eatonpower', snmp_outlet: 40 }));
    const pdu = power(node);
    await pdu.set('power on');
    // The first read after the SET saw 3 (pending on, Ironic's off), so it had to read again.
    assert.equal(await lab.agent.statusValue('eatonpower', 40), 1);
    assert.equal(await lab.agent.snmpgetOid(statusOid(PDU_LAYOUTS.find((l) => l.driver === 'eatonpower') as PduLayout, 40)), '1');
    assert.equal(await pdu.read(), 'power on');
  });
});
