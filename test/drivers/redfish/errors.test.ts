import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as net from 'node:net';
import { driverInfo, Lab, redfishNode, startLab, withTask } from './support';

let lab: Lab;

before(async () => {
  lab = await startLab({}, { connection_attempts: 2, connection_retry_interval: 1 });
});

after(async () => {
  await lab.stop();
});

/** A BMC address whose every connection is dropped at once: no port can be reused by someone else meanwhile. */
async function droppingServer(): Promise<net.Server> {
  const srv = net.createServer((socket) => socket.destroy());
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  return srv;
}

test('wrong credentials surface as a RedfishError carrying the BMC\'s 401', { timeout: 30000 }, async () => {
  for (const auth of ['auto', 'session', 'basic']) {
    const node = await redfishNode(lab, driverInfo(lab.bmc, { redfish_password: 'wrong', redfish_auth_type: auth }));
    await assert.rejects(withTask(lab, node, (t) => t.driver.power.getPowerState(t)), (err: Error) => {
      assert.equal(err.name, 'RedfishError', auth);
      // sushy's wording, which Ironic's messages carry.
      assert.match(err.message, /^Redfish exception occurred\. Error: HTTP (GET|POST) http:\/\/127\.0\.0\.1:\d+\/redfish\/v1\/\S+ returned code 401\. [\w.]+: \S/, auth);
      return true;
    });
  }
});

test('an unreachable BMC fails with RedfishConnectionError within attempts x retry interval', { timeout: 30000 }, async () => {
  const srv = await droppingServer();
  try {
    const { port } = srv.address() as net.AddressInfo;
    const node = await redfishNode(lab, driverInfo(lab.bmc, { redfish_address: `http://127.0.0.1:${port}` }));
    const started = Date.now();
    await assert.rejects(withTask(lab, node, (t) => t.driver.power.getPowerState(t)), (err: Error) => {
      assert.equal(err.name, 'RedfishConnectionError');
      assert.ok(err.message.startsWith(`Redfish connection failed for node ${node.uuid}: Unable to connect to http://127.0.0.1:${port}/redfish/v1/`), err.message);
      return true;
    });
    const elapsed = Date.now() - started;
    // 2 attempts, 1 s apart: one wait between them, well under the bound.
    assert.ok(elapsed >= 900 && elapsed < 5000, `took ${elapsed} ms`);
  } finally {
    await new Promise((r) => srv.close(r));
  }
});

test('an unknown system is a RedfishError, not a hang', { timeout: 30000 }, async () => {
  const node = await redfishNode(lab, driverInfo(lab.bmc, { redfish_system_id: '/redfish/v1/Systems/nope' }));
  await assert.rejects(withTask(lab, node, (t) => t.driver.management.getBootDevice(t)), (err: Error) => {
    assert.equal(err.name, 'RedfishError');
    assert.match(err.message, /404/);
    return true;
  });
});

test('a failed power on through the conductor leaves a clear last_error', { timeout: 30000 }, async () => {
  const node = await redfishNode(lab, driverInfo(lab.bmc, { redfish_password: 'wrong' }));
  await lab.svc.api.changeNodePowerState(node.uuid, 'power on');
  const deadline = Date.now() + 10000;
  let last: string | null = null;
  while (Date.now() < deadline) {
    const n = await withTask(lab, node, async (t) => t.node).catch(() => null);
    last = n?.last_error ?? null;
    if (last && n?.target_power_state === null) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.ok(last, 'last_error set');
  assert.match(last as string, /power on/);
  assert.match(last as string, /Redfish exception occurred\. Error: .*401/);
});
