/** Step priority overrides ([conductor]clean_step_priority_override) read from a real ironic.conf and applied. */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { log } from '../../src/common/log';
import { Config } from '../../src/conf/config';
import { startConductorService, ConductorService } from '../../src/conductor/service';
import { cleanPriorityOverrides, sortSteps, withPriorityOverrides } from '../../src/conductor/steps';
import { makeConf, sqliteDb, stable, TempDb, waitForNode } from './support';

const STEPS = [
  { interface: 'deploy', step: 'erase_devices', priority: 10 },
  { interface: 'deploy', step: 'erase_devices_metadata', priority: 99 },
  { interface: 'bios', step: 'factory_reset', priority: 0 },
  { interface: 'raid', step: 'delete_configuration', priority: 0 },
];

test('every occurrence of the option adds interface.step:priority pairs, later ones winning', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ironic-steps-'));
  try {
    const file = path.join(dir, 'ironic.conf');
    fs.writeFileSync(file, ['[conductor]',
      'clean_step_priority_override = deploy.erase_devices:50',
      'clean_step_priority_override = bios.factory_reset:7,deploy.erase_devices:0',
      'clean_step_priority_override = deploy.erase_devices_metadata:5', ''].join('\n'));
    const overrides = cleanPriorityOverrides(new Config([file]));
    assert.deepEqual([...overrides], [['deploy.erase_devices', '0'], ['bios.factory_reset', '7'],
      ['deploy.erase_devices_metadata', '5']]);
    const applied = withPriorityOverrides(STEPS, overrides);
    assert.deepEqual(applied.map((s) => s.priority), [0, 5, 7, 0]);
    // Enabled steps are those left above zero after the overrides, highest first.
    assert.deepEqual(sortSteps(applied.filter((s) => s.priority !== 0)).map((s) => s.step), ['factory_reset', 'erase_devices_metadata']);
    assert.equal(STEPS[0].priority, 10, 'the driver\'s own step list is not changed');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('unset, the steps are returned as they are; a non-integer priority is refused', () => {
  assert.equal(withPriorityOverrides(STEPS, cleanPriorityOverrides(makeConf('h'))), STEPS);
  assert.throws(() => withPriorityOverrides(STEPS, new Map([['raid.delete_configuration', 'high']])),
    /invalid literal for int\(\) with base 10: 'high'/);
});

let tmp: TempDb;
let svc: ConductorService;

before(async () => {
  tmp = await sqliteDb();
  svc = await startConductorService({
    conf: makeConf('steps-host', { conductor: { automated_clean: true, clean_step_priority_override: ['bios.factory_reset:15'] } }),
    db: tmp.db,
  });
});

after(async () => {
  await svc.stop();
  await tmp.cleanup();
});

test('automated cleaning runs a step the override enables and the node becomes available', async () => {
  const node = await svc.api.createNode({ name: 'override', driver: 'fake-hardware', bios_interface: 'fake' });
  await svc.api.doProvisioningAction(node.uuid, 'manage');
  await waitForNode(tmp.db, node.uuid, stable('manageable'));
  const executed: string[] = [];
  const info = log.info;
  log.info = (message: string): void => { if (message.startsWith('Executing ')) executed.push(message); };
  try {
    await svc.api.doProvisioningAction(node.uuid, 'provide');
    const done = await waitForNode(tmp.db, node.uuid, stable('available'));
    assert.equal(done.last_error, null);
  } finally {
    log.info = info;
  }
  // The override's step first, then the fake vendor's log_passthrough (a priority-1 clean step in 29.0.5).
  assert.equal(executed.length, 2, executed.join('\n'));
  assert.match(executed[0], /'step': 'factory_reset', 'priority': 15, .*'interface': 'bios'/);
  assert.match(executed[1], /'step': 'log_passthrough', 'priority': 1, .*'interface': 'vendor'/);
});
