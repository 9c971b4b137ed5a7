/**
 * The fake BIOS's clean steps through a real manual clean (FakeBIOS in 21.4.4): apply_configuration
 * makes the node's bios_settings exactly the given ones (created, updated, the rest deleted, values
 * as Python's str()), factory_reset removes them all.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startConductorService, ConductorService } from '../../../src/conductor/service';
import * as bios from '../../../src/db/repositories/bios';
import { writeNodeFields } from '../../../src/db/repositories/conductor-node-queries';
import { makeConf, sqliteDb, stable, TempDb, waitForNode } from '../../conductor/support';

let tmp: TempDb;
let svc: ConductorService;

before(async () => {
  tmp = await sqliteDb();
  svc = await startConductorService({ conf: makeConf('bios-host'), db: tmp.db });
});

after(async () => {
  await svc.stop();
  await tmp.cleanup();
});

async function cleanWith(uuid: string, step: string, args: Record<string, unknown> = {}): Promise<void> {
  await svc.api.doNodeClean(uuid, [{ interface: 'bios', step, args }]);
  await waitForNode(tmp.db, uuid, stable('manageable'));
}

const settingsOf = async (nodeId: number) =>
  (await bios.list(tmp.db, nodeId)).map((s) => [s.name, s.value, s.version]);

test('apply_configuration replaces the settings, factory_reset clears them', async () => {
  const node = await svc.api.createNode({ name: 'bios', driver: 'fake-hardware', bios_interface: 'fake' });
  await writeNodeFields(tmp.db, node.id, { provision_state: 'manageable' });
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
