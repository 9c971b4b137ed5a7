import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startAgentEmulator, type AgentEmulator } from '../../../src/emulators/agent/server';

/** The emulated agent's clean and rescue commands over its HTTP API, as Ironic's agent client calls them. */
describe('agent emulator: clean and rescue extensions', () => {
  let dir: string;
  let agent: AgentEmulator;
  const disk = () => path.join(dir, 'root.disk');

  before(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'agent-emu-clean-'));
    // No Ironic behind it: lookups fail quietly, the command API still answers.
    agent = await startAgentEmulator({ ironicUrl: 'http://127.0.0.1:9', macs: ['52:54:00:ee:00:01'], heartbeatIntervalMs: 60_000,
      disks: { root: disk(), configdrive: path.join(dir, 'cd.iso') } });
  });
  after(async () => {
    await agent.stop();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  async function command(name: string, params: Record<string, unknown>, wait = false): Promise<Record<string, any>> {
    const res = await fetch(`${agent.url}/v1/commands/?wait=${String(wait)}`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name, params }),
    });
    assert.equal(res.status, 200);
    return await res.json() as Record<string, any>;
  }

  async function finished(id: string): Promise<Record<string, any>> {
    for (let i = 0; i < 100; i++) {
      const body = await (await fetch(`${agent.url}/v1/commands/`)).json() as { commands: Record<string, any>[] };
      const entry = body.commands.find((c) => c.id === id)!;
      if (entry.command_status !== 'RUNNING') return entry;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('command never finished');
  }

  it('get_clean_steps reports the generic hardware manager steps and version, as IPA 9.4', async () => {
    const r = await command('clean.get_clean_steps', { node: {}, ports: [] }, true);
    assert.equal(r.command_status, 'SUCCEEDED');
    assert.deepEqual(r.command_result.hardware_manager_version, { generic_hardware_manager: '1.1' });
    const steps = r.command_result.clean_steps.GenericHardwareManager as Record<string, unknown>[];
    assert.deepEqual(steps.find((s) => s.step === 'erase_devices'),
      { step: 'erase_devices', priority: 10, interface: 'deploy', reboot_requested: false, abortable: true });
    assert.deepEqual(steps.find((s) => s.step === 'erase_devices_metadata'),
      { step: 'erase_devices_metadata', priority: 99, interface: 'deploy', reboot_requested: false, abortable: true });
    assert.deepEqual(steps.filter((s) => s.priority !== 0).map((s) => s.step), ['erase_devices', 'erase_devices_metadata']);
  });

  it('execute_clean_step runs asynchronously and answers {clean_result, clean_step}', async () => {
    await fsp.writeFile(disk(), Buffer.alloc(3 * 1024 * 1024, 0x5a));
    const step = { step: 'erase_devices_metadata', interface: 'deploy', priority: 99 };
    const r = await command('clean.execute_clean_step', { step, node: {}, ports: [],
      clean_version: { generic_hardware_manager: '1.1' } });
    assert.equal(r.command_status, 'RUNNING');
    const done = await finished(r.id);
    assert.equal(done.command_status, 'SUCCEEDED');
    assert.deepEqual(done.command_result, { clean_result: null, clean_step: step });
    const data = await fsp.readFile(disk());
    assert.ok(data.subarray(0, 1024 * 1024).every((b) => b === 0));
    assert.ok(data.subarray(1024 * 1024, 2 * 1024 * 1024).every((b) => b === 0x5a));
    assert.ok(data.subarray(2 * 1024 * 1024).every((b) => b === 0));
  });

  it('a step planned against other hardware manager versions ends CLEAN_VERSION_MISMATCH', async () => {
    const r = await command('clean.execute_clean_step', { step: { step: 'erase_devices', interface: 'deploy' }, node: {},
      ports: [], clean_version: { generic_hardware_manager: '1.0' } });
    const done = await finished(r.id);
    assert.equal(done.command_status, 'CLEAN_VERSION_MISMATCH');
    assert.equal(done.command_error.type, 'VersionMismatch');
    assert.match(done.command_error.details, /versions used by ironic: \{"generic_hardware_manager":"1.0"\}/);
  });

  it('an unknown step fails as IPA\'s HardwareManagerMethodNotFound', async () => {
    const r = await command('clean.execute_clean_step', { step: { step: 'frobnicate', interface: 'deploy' }, node: {}, ports: [] });
    const done = await finished(r.id);
    assert.equal(done.command_status, 'FAILED');
    assert.equal(done.command_error.details, 'Could not find method: frobnicate');
  });

  it('finalize_rescue records the hash and then stops serving the API', async () => {
    const r = await command('rescue.finalize_rescue', { rescue_password: '$5$salt$hash', hashed: true });
    assert.equal(r.command_status, 'SUCCEEDED');
    assert.deepEqual(agent.runner.rescue, { password: '$5$salt$hash', hashed: true });
    const after = await fetch(`${agent.url}/v1/commands/`);
    assert.equal(after.status, 404);
    await after.arrayBuffer();
  });
});
