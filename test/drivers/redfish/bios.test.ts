import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as biosSettings from '../../../src/db/repositories/bios';
import { Lab, redfishNode, startLab, withTask } from './support';

let lab: Lab;

before(async () => {
  lab = await startLab({ systems: ['1'] });
});

after(async () => {
  await lab.stop();
});

async function cached(nodeId: number): Promise<Record<string, string | null>> {
  return Object.fromEntries((await biosSettings.list(lab.tmp.db, nodeId)).map((r) => [r.name, r.value]));
}

test('cache_bios_settings stores the BMC\'s attributes and follows later changes', async () => {
  const node = await redfishNode(lab);
  const sys = lab.bmc.system('1');
  await withTask(lab, node, (t) => t.driver.bios.cacheBiosSettings(t));
  const rows = await cached(node.id);
  assert.equal(rows.ProcTurboMode, 'Enabled');
  assert.equal(rows.NumCores, '8');
  assert.equal(rows.UefiHttpBoot, 'False');
  assert.equal(Object.keys(rows).length, Object.keys(sys.bios.current).length);
  sys.bios.current = { ...sys.bios.current, NumCores: 16 };
  delete sys.bios.current.EmbeddedSata;
  await withTask(lab, node, (t) => t.driver.bios.cacheBiosSettings(t));
  const after = await cached(node.id);
  assert.equal(after.NumCores, '16');
  assert.equal('EmbeddedSata' in after, false);
  sys.bios.current = { ...sys.bios.current, EmbeddedSata: 'AhciMode', NumCores: 8 };
});

test('apply_configuration stages, reboots to apply, verifies and caches', async () => {
  const node = await redfishNode(lab);
  const sys = lab.bmc.system('1');
  sys.reset('ForceOff');
  const result = await withTask(lab, node, async (t) => t.driver.bios.executeStep?.(t, 'apply_configuration', {
    settings: [{ name: 'ProcTurboMode', value: 'Disabled' }, { name: 'NumCores', value: 4 }],
  }));
  assert.equal(result, null);
  assert.equal(sys.bios.current.ProcTurboMode, 'Disabled');
  assert.equal(sys.bios.current.NumCores, 4);
  assert.equal(sys.powerState, 'On');
  const rows = await cached(node.id);
  assert.equal(rows.ProcTurboMode, 'Disabled');
  assert.equal(rows.NumCores, '4');
  assert.equal((await withTask(lab, node, async (t) => t.node)).power_state, 'power on');
});

test('a setting the BMC rejects fails the step with Ironic\'s wording', async () => {
  const node = await redfishNode(lab);
  await assert.rejects(withTask(lab, node, (t) => t.driver.bios.applyConfiguration(t, [{ name: 'NoSuchSetting', value: 'x' }])),
    (err: Error) => {
      assert.equal(err.name, 'RedfishError');
      assert.ok(err.message.startsWith(`Redfish exception occurred. Error: Redfish BIOS apply configuration failed for node ${node.uuid}. Error: `), err.message);
      assert.match(err.message, /NoSuchSetting/);
      return true;
    });
});

test('factory_reset restores defaults after the reboot', async () => {
  const node = await redfishNode(lab);
  const sys = lab.bmc.system('1');
  sys.bios.current = { ...sys.bios.current, LogicalProc: 'Disabled' };
  await withTask(lab, node, (t) => t.driver.bios.factoryReset(t));
  assert.equal(sys.bios.current.LogicalProc, 'Enabled');
  assert.equal((await cached(node.id)).LogicalProc, 'Enabled');
});

test('bios steps are declared for cleaning and deployment at priority 0', async () => {
  const node = await redfishNode(lab);
  await withTask(lab, node, async (t) => {
    const steps = (t.driver.bios.steps ?? []).map((s) => [s.step, s.priority, [...s.kinds].sort().join(',')]);
    assert.deepEqual(steps, [['apply_configuration', 0, 'clean,deploy'], ['factory_reset', 0, 'clean,deploy']]);
  });
});
