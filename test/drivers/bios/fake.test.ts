/**
 * The fake BIOS's clean steps through a real manual clean (FakeBIOS in 21.4.4): apply_configuration
 * makes the node's bios_settings exactly the given ones (created, updated, the rest deleted, values
 * as Python's str()), factory_reset removes them all.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as bios from '../../../src/db/repositories/bios';
import * as nodes from '../../../src/db/repositories/nodes';
import { conductorFixture, stable, waitForNode } from '../../conductor/support';

const fx = conductorFixture('bios-host');

async function cleanWith(uuid: string, step: string, args: Record<string, unknown> = {}): Promise<void> {
  await fx.svc.api.doNodeClean(uuid, [{ interface: 'bios', step, args }]);
  await waitForNode(fx.tmp.db, uuid, stable('manageable'));
}

const settingsOf = async (nodeId: number) =>
  (await bios.list(fx.tmp.db, nodeId)).map((s) => [s.name, s.value, s.version]);

test('apply_configuration replaces the settings, factory_reset clears them', async () => {
  const node = await fx.svc.api.createNode({ name: 'bios', driver: 'fake-hardware', bios_interface: 'fake' });
  await nodes.updateFields(fx.tmp.db, node, { provision_state: 'manageable' });
  await cleanWith(node.uuid, 'apply_configuration', {
    settings: [{ name: 'ProcVirtualization', value: 'Enabled' }, { name: 'NumLock', value: true }, { name: 'Cores', value: 8 }],
  });
  assert.deepEqual(await settingsOf(node.id),
    [['Cores', '8', '1.1'], ['NumLock', 'True', '1.1'], ['ProcVirtualization', 'Enabled', '1.1']]);
  await cleanWith(node.uuid, 'apply_configuration', {
    settings: [{ name: 'ProcVirtualization', value: 'Disabled' }, { name: 'BootMode', value: 'Uefi' }],
  });
  assert.deepEqual(await settingsOf(node.id),
    [['BootMode', 'Uefi', '1.1'], ['ProcVirtualization', 'Disabled', '1.1']], 'updated, created, the rest deleted');
  await cleanWith(node.uuid, 'factory_reset');
  assert.deepEqual(await settingsOf(node.id), []);
});
