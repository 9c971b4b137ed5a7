import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { portsOfNode } from '../../../src/db/repositories/conductor-port-queries';
import { stable, waitForNode } from '../../conductor/support';
import { driverInfo, Lab, redfishNode, startLab, withTask } from './support';

let lab: Lab;

before(async () => {
  lab = await startLab({ systems: [{ id: '1', macAddresses: ['52:54:00:AA:BB:01', '52:54:00:aa:bb:02'], diskSizesGiB: [2, 100] }] });
});

after(async () => {
  await lab.stop();
});

test('inspection through the conductor fills the essential properties and creates ports', async () => {
  const node = await redfishNode(lab, driverInfo(lab.bmc), { properties: { capabilities: 'foo:bar' } });
  assert.equal(node.inspect_interface, 'redfish');
  await lab.svc.api.doProvisioningAction(node.uuid, 'manage');
  await waitForNode(lab.tmp.db, node.uuid, stable('manageable'));
  await lab.svc.api.inspectHardware(node.uuid);
  const done = await waitForNode(lab.tmp.db, node.uuid, stable('manageable'));
  assert.equal(done.last_error, null);
  assert.deepEqual(done.properties, {
    capabilities: 'foo:bar,boot_mode:uefi', memory_mb: '32768', cpus: 16, cpu_arch: 'x86_64', local_gb: '99',
    vendor: 'ironic-ts', // recorded when the node was verified (node_cache_vendor)
  });
  const ports = await portsOfNode(lab.tmp.db, node.id);
  assert.deepEqual(ports.map((p) => p.address).sort(), ['52:54:00:aa:bb:01', '52:54:00:aa:bb:02']);

  // A second inspection finds the ports already there and keeps the operator's boot_mode.
  await withTask(lab, node, async (t) => {
    t.node.properties = { capabilities: 'boot_mode:bios' };
    assert.equal(await t.driver.inspect.inspectHardware(t), 'manageable');
    assert.equal(t.node.properties?.capabilities, 'boot_mode:bios');
  });
  assert.equal((await portsOfNode(lab.tmp.db, node.id)).length, 2);
});
