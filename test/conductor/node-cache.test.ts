/**
 * What verification and the power sync record about a node's hardware (utils.node_cache_*): on a
 * Redfish BMC (our emulator) the BIOS settings, the vendor and the boot mode / secure boot state; on
 * fake-hardware, which has none of these, nothing. The power sync catches up with a boot mode
 * changed behind the conductor's back.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as bios from '../../src/db/repositories/bios';
import * as nodes from '../../src/db/repositories/nodes';
import { driverInfo, Lab, redfishNode, startLab } from '../drivers/redfish/support';
import { stable, waitForNode } from './support';

let lab: Lab;

before(async () => {
  lab = await startLab({ systems: [{ id: '1', manufacturer: 'Contoso', bootMode: 'Legacy' }] });
});

after(async () => {
  await lab.stop();
});

async function manage(uuid: string) {
  await lab.svc.api.doProvisioningAction(uuid, 'manage');
  return waitForNode(lab.tmp.db, uuid, stable('manageable'));
}

test('verifying a Redfish node records its BIOS settings, vendor and boot mode', async () => {
  const node = await redfishNode(lab, driverInfo(lab.bmc), { bios_interface: 'redfish', properties: { cpus: 4 } });
  const managed = await manage(node.uuid);
  assert.deepEqual(managed.properties, { cpus: 4, vendor: 'Contoso' });
  assert.equal(managed.boot_mode, 'bios');
  assert.equal(managed.secure_boot, false);
  const settings = new Map((await bios.list(lab.tmp.db, node.id)).map((s) => [s.name, s.value]));
  assert.equal(settings.get('ProcTurboMode'), 'Enabled');
  assert.equal(settings.get('NumCores'), '8');
});

test('a vendor already recorded is kept', async () => {
  const node = await redfishNode(lab, driverInfo(lab.bmc), { properties: { vendor: 'kept' } });
  assert.equal((await manage(node.uuid)).properties?.vendor, 'kept');
});

test('fake-hardware records nothing', async () => {
  const node = await lab.svc.api.createNode({ driver: 'fake-hardware', bios_interface: 'fake' });
  const managed = await manage(node.uuid);
  assert.deepEqual(managed.properties, {});
  assert.equal(managed.boot_mode, null);
  assert.equal(managed.secure_boot, null);
  assert.deepEqual(await bios.list(lab.tmp.db, node.id), []);
});

test('the power sync records a boot mode and a vendor the node was missing', async () => {
  const node = await redfishNode(lab, driverInfo(lab.bmc));
  await manage(node.uuid);
  await nodes.updateFields(lab.tmp.db, node, { boot_mode: null, secure_boot: null, properties: {} });
  await lab.svc.powerSync.syncPowerStates();
  const synced = await nodes.find(lab.tmp.db, node.uuid);
  assert.equal(synced.boot_mode, 'bios');
  assert.equal(synced.secure_boot, false);
  assert.equal(synced.properties?.vendor, 'Contoso');
  assert.equal(synced.reservation, null, 'the sync let go of the lock it upgraded to');
});
