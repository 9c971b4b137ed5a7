import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as dgram from 'node:dgram';
import { driverInfo, Lab, snmpNode, startLab, withTask } from './support';

/** A socket on 127.0.0.1 that swallows every datagram: the unreachable PDU. */
function blackHole(): Promise<dgram.Socket> {
  return new Promise((resolve, reject) => {
    const sock = dgram.createSocket('udp4');
    sock.once('error', reject);
    sock.bind(0, '127.0.0.1', () => resolve(sock));
  });
}

describe('snmp errors', { timeout: 45000 }, () => {
  let lab: Lab;
  let silent: dgram.Socket;
  let received = 0;

  before(async () => {
    lab = await startLab({ udp_transport_timeout: 0.3, udp_transport_retries: 2 });
    silent = await blackHole();
    silent.on('message', () => { received += 1; });
  });

  after(async () => {
    await new Promise<void>((resolve) => silent.close(() => resolve()));
    await lab.stop();
  });

  test('an unreachable agent is SNMPFailure after udp_transport_timeout × (retries + 1)', async () => {
    const node = await snmpNode(lab, driverInfo(silent.address().port));
    received = 0;
    const started = Date.now();
    await assert.rejects(withTask(lab, node, (t) => t.driver.power.getPowerState(t)), (err: Error) => {
      assert.equal(err.name, 'SNMPFailure');
      assert.equal(err.message, "SNMP operation 'GET' failed: No SNMP response received before timeout");
      return true;
    });
    const elapsed = Date.now() - started;
    // 3 attempts of 0.3 s each: it waited for all of them, and gave up rather than hanging.
    assert.equal(received, 3);
    assert.ok(elapsed >= 850, `gave up after ${elapsed} ms`);
    assert.ok(elapsed < 10000, `took ${elapsed} ms`);
  });

  test('a SET to an unreachable agent is SNMPFailure too', async () => {
    const node = await snmpNode(lab, driverInfo(silent.address().port));
    await assert.rejects(withTask(lab, node, (t) => t.driver.power.setPowerState(t, 'power off')),
      (err: Error) => err.name === 'SNMPFailure' && err.message.startsWith("SNMP operation 'SET' failed"));
  });

  test('a wrong community gets no answer from snmpd: SNMPFailure', async () => {
    const node = await snmpNode(lab, driverInfo(lab.agent.port, { snmp_community_read: 'wrong' }));
    await assert.rejects(withTask(lab, node, (t) => t.driver.power.getPowerState(t)),
      (err: Error) => err.name === 'SNMPFailure');
  });
});
