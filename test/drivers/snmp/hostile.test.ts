/**
 * A PDU answering nothing but mangled, stale or no packets, through the driver and the conductor's node lock:
 * every power call ends in SNMPFailure within [snmp]udp_transport_timeout × attempts (plus the
 * client's backstop), and the node's lock is free afterwards, so no worker is held.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { HostileRelay } from '../../protocols/snmp/hostile-relay';
import { driverInfo, Lab, snmpNode, startLab, withTask } from './support';

const TIMEOUT_S = 0.3;
const RETRIES = 1;

describe('snmp power against a PDU answering only mangled packets', { timeout: 60000 }, () => {
  let lab: Lab;
  let relay: HostileRelay;

  before(async () => {
    lab = await startLab({ udp_transport_timeout: TIMEOUT_S, udp_transport_retries: RETRIES });
    // Only mutations that can never pass for a genuine answer (a flipped bit may land in a value).
    relay = new HostileRelay(lab.agent.port, { seed: 11, rate: 1, delayMs: 2000,
      only: ['truncate', 'request-id', 'garbage', 'empty', 'delay', 'drop'] });
    await relay.start();
  });

  after(async () => {
    await relay.stop();
    await lab.stop();
  });

  test('get, set and reboot fail with SNMPFailure in bounded time and release the node', async () => {
    const node = await snmpNode(lab, driverInfo(relay.port, { snmp_outlet: 4 }));
    const bound = TIMEOUT_S * 1000 * (RETRIES + 1) + 1000 + 2000;
    const calls = [
      (): Promise<unknown> => withTask(lab, node, (t) => t.driver.power.getPowerState(t)),
      (): Promise<unknown> => withTask(lab, node, (t) => t.driver.power.setPowerState(t, 'power on')),
      (): Promise<unknown> => withTask(lab, node, (t) => t.driver.power.reboot(t)),
    ];
    for (let round = 0; round < 4; round += 1) {
      for (const call of calls) {
        const started = Date.now();
        await assert.rejects(call(), (err: Error) => {
          assert.equal(err.name, 'SNMPFailure', err.message);
          assert.match(err.message, /^SNMP operation '(GET|SET)' failed: /);
          return true;
        });
        const elapsed = Date.now() - started;
        assert.ok(elapsed < bound, `took ${elapsed} ms, bound ${bound} ms`);
      }
    }
    assert.ok(relay.seen.size >= 5, `mutations tried: ${JSON.stringify([...relay.seen])}`);
    assert.equal(relay.seen.get('pass'), undefined, 'no genuine answer got through');
    // The lock was released every time: the conductor can still take the node.
    assert.equal(await withTask(lab, node, async () => 'free'), 'free');
  });
});
